import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { testRuntime } from "../../dev/test/runtime";
import { deletePrefix, listKeys } from "./delete-prefix";
import { headObject } from "./head-object";
import { completeMultipartUpload, createMultipartUpload, listStoredParts } from "./multipart";
import { ObjectChangedError } from "./object-changed";
import { downloadObjectToFile, uploadFile } from "./object-io";
import { sourceObjectKey, videoObjectPrefix } from "./object-keys";
import { presignGet, presignSinglePut, presignUploadPart } from "./presign";

const runtime = testRuntime();
const { s3, s3Presigner } = runtime.clients;
const bucket = runtime.config.aws.bucketName;
const MiB = 1024 * 1024;

let counter = 0;
const freshKey = () => {
  counter += 1;
  return sourceObjectKey(`cr_storage${process.pid}`, `vid_storage${Date.now()}${counter}`);
};

const bytes = (size: number, fill = 7) => new Uint8Array(size).fill(fill);

async function put(url: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: "PUT", body, headers });
  await response.arrayBuffer();
  return response;
}

/** A single-PUT URL for an MP4 of `sizeBytes` at `key`, as an upload gets. */
const presignMp4Put = (key: string, sizeBytes: number, options: { expiresInSeconds?: number } = {}) =>
  presignSinglePut({
    presigner: s3Presigner,
    bucket,
    key,
    contentType: "video/mp4",
    contentLengthBytes: sizeBytes,
    ...options,
  });

describe("presigned single PUT", () => {
  it("stores the file when type and size match what was signed", async () => {
    const key = freshKey();
    const request = await presignMp4Put(key, 1000);
    const response = await put(request.url, bytes(1000), request.headers);
    expect(response.status).toBe(200);
    expect(await headObject({ s3, bucket, key })).toMatchObject({
      sizeBytes: 1000,
      contentType: "video/mp4",
    });
  });

  it("only creates: a second PUT through the same URL is refused with 412 and the first file stays", async () => {
    const key = freshKey();
    const request = await presignMp4Put(key, 1000);
    expect(request.headers["if-none-match"]).toBe("*");
    expect((await put(request.url, bytes(1000), request.headers)).status).toBe(200);
    const first = await headObject({ s3, bucket, key });

    const replaced = bytes(1000, 9);
    const again = await put(request.url, replaced, request.headers);
    expect(again.status).toBe(412);
    expect(await headObject({ s3, bucket, key })).toEqual(first);
    // Without the signed header the URL is not valid at all.
    const { "if-none-match": _, ...withoutCondition } = request.headers;
    expect((await put(request.url, replaced, withoutCondition)).status).toBe(403);
    expect(await headObject({ s3, bucket, key })).toEqual(first);
  });

  it("is refused with another content type", async () => {
    const key = freshKey();
    const request = await presignMp4Put(key, 1000);
    const response = await put(request.url, bytes(1000), { "content-type": "text/html" });
    expect(response.status).toBe(403);
    expect(await headObject({ s3, bucket, key })).toBeUndefined();
  });

  it("is refused with another size", async () => {
    const key = freshKey();
    const request = await presignMp4Put(key, 1000);
    expect((await put(request.url, bytes(1001), request.headers)).status).toBe(403);
    expect((await put(request.url, bytes(999), request.headers)).status).toBe(403);
    expect(await headObject({ s3, bucket, key })).toBeUndefined();
  });

  it("is refused when tampered with", async () => {
    const key = freshKey();
    const request = await presignMp4Put(key, 10);
    const otherKey = request.url.replace("/source?", "/source2?");
    expect((await put(otherKey, bytes(10), request.headers)).status).toBe(403);
    const url = new URL(request.url);
    const signature = url.searchParams.get("X-Amz-Signature") ?? "";
    url.searchParams.set(
      "X-Amz-Signature",
      `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`,
    );
    expect((await put(url.toString(), bytes(10), request.headers)).status).toBe(403);
    const longer = new URL(request.url);
    longer.searchParams.set("X-Amz-Expires", "604800");
    expect((await put(longer.toString(), bytes(10), request.headers)).status).toBe(403);
    expect(await headObject({ s3, bucket, key })).toBeUndefined();
  });

  it("is refused once expired", async () => {
    const key = freshKey();
    const request = await presignMp4Put(key, 10, { expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const response = await fetch(request.url, { method: "PUT", body: bytes(10), headers: request.headers });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/expired/i);
    expect(await headObject({ s3, bucket, key })).toBeUndefined();
  });

  it("unsigned requests are refused", async () => {
    const key = freshKey();
    const unsigned = `${runtime.config.aws.s3Endpoint}/${bucket}/${key}`;
    expect((await put(unsigned, bytes(10), { "content-type": "video/mp4" })).status).toBe(403);
  });
});

describe("multipart upload through presigned part URLs", () => {
  it("assembles the parts, and a part of another size is refused", async () => {
    const key = freshKey();
    const uploadId = await createMultipartUpload({ s3, bucket, key, contentType: "video/webm" });
    const sizes = [5 * MiB, 5 * MiB, 1234];
    const parts: { partNumber: number; etag: string }[] = [];
    for (const [index, size] of sizes.entries()) {
      const partNumber = index + 1;
      const request = await presignUploadPart({
        presigner: s3Presigner,
        bucket,
        key,
        uploadId,
        partNumber,
        contentLengthBytes: size,
      });
      if (partNumber === 3) expect((await put(request.url, bytes(size + 1))).status).toBe(403);
      const response = await put(request.url, bytes(size, partNumber));
      expect(response.status).toBe(200);
      parts.push({ partNumber, etag: response.headers.get("etag") ?? "" });
    }
    const listed = await listStoredParts({ s3, bucket, key, uploadId });
    // The embedded S3 server has no ListParts: it must say so, not fail or list wrongly.
    if (listed === "unsupported") expect(runtime.config.services).toBe("embedded");
    else expect(listed).toEqual([1, 2, 3].map((partNumber) => expect.objectContaining({ partNumber })));
    await completeMultipartUpload({ s3, bucket, key, uploadId, parts });
    expect(await headObject({ s3, bucket, key })).toMatchObject({
      sizeBytes: 10 * MiB + 1234,
      contentType: "video/webm",
    });
    const get = await presignGet({ client: s3, bucket, key, downloadFilename: "My clip (1).webm" });
    const response = await fetch(get.url, { headers: { range: "bytes=0-3" } });
    expect(response.status).toBe(206);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 1, 1, 1]);
  });
});

describe("uploadFile", () => {
  it("sends a file larger than a part in parts, and it reads back byte for byte", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "truss-upload-file-"));
    try {
      const filePath = path.join(directory, "copy.mkv");
      const content = randomBytes(11 * MiB + 123);
      await writeFile(filePath, content);
      const key = freshKey();
      // The real client, with the name of each request it sends noted.
      const sent: string[] = [];
      const noting = {
        send: (command: { constructor: { name: string } }, options?: unknown) => {
          sent.push(command.constructor.name);
          return s3.send(command as never, options as never);
        },
      } as unknown as typeof s3;
      await uploadFile({
        s3: noting,
        bucket,
        key,
        filePath,
        contentType: "video/x-matroska",
        partSizeBytes: 5 * MiB,
      });
      expect(sent).toEqual([
        "CreateMultipartUploadCommand",
        "UploadPartCommand",
        "UploadPartCommand",
        "UploadPartCommand",
        "CompleteMultipartUploadCommand",
      ]);
      expect(await headObject({ s3, bucket, key })).toMatchObject({
        sizeBytes: content.length,
        contentType: "video/x-matroska",
      });
      const readBack = path.join(directory, "read-back");
      await downloadObjectToFile({ s3, bucket, key, filePath: readBack });
      const digest = (data: Buffer) => createHash("sha256").update(data).digest("hex");
      expect(digest(await readFile(readBack))).toBe(digest(content));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("reads pinned to an ETag (If-Match)", () => {
  it("read the object that was checked, and refuse one stored since with 412 PreconditionFailed, as S3 does", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "truss-if-match-"));
    try {
      const key = freshKey();
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes(1000, 1) }));
      const checked = await headObject({ s3, bucket, key });
      const etag = checked?.etag;
      if (!etag) throw new Error("expected an ETag");
      const filePath = path.join(directory, "download");
      // The ETag as S3 gives it (quoted), bare, in a list, or `*`: all name this object.
      for (const ifMatch of [etag, etag.replaceAll('"', ""), `"0123", ${etag}`, "*"]) {
        expect(await headObject({ s3, bucket, key, ifMatch }), ifMatch).toMatchObject({ sizeBytes: 1000 });
        expect(await downloadObjectToFile({ s3, bucket, key, filePath, ifMatch }), ifMatch).toBe(1000);
      }
      const { url } = await presignGet({ client: s3, bucket, key });
      expect((await fetch(url, { headers: { "if-match": etag } })).status).toBe(200);

      // The same size, other bytes: what a second PUT through a still-valid upload URL stores.
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes(1000, 2) }));
      await expect(headObject({ s3, bucket, key, ifMatch: etag })).rejects.toBeInstanceOf(ObjectChangedError);
      await expect(downloadObjectToFile({ s3, bucket, key, filePath, ifMatch: etag })).rejects.toBeInstanceOf(
        ObjectChangedError,
      );
      const refused = await s3
        .send(new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: etag }))
        .catch((error: unknown) => error as Error & { $metadata: { httpStatusCode?: number } });
      expect(refused).toMatchObject({ name: "PreconditionFailed", $metadata: { httpStatusCode: 412 } });
      // A presigned GET carrying the header (as ffprobe sends it) is refused too.
      const response = await fetch(url, { headers: { "if-match": etag } });
      await response.arrayBuffer();
      expect(response.status).toBe(412);
      // Without a condition the object reads as it now is; a missing one is still just missing.
      expect(await downloadObjectToFile({ s3, bucket, key, filePath })).toBe(1000);
      expect((await readFile(filePath))[0]).toBe(2);
      expect(await headObject({ s3, bucket, key: freshKey(), ifMatch: etag })).toBeUndefined();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("deletePrefix", () => {
  it("removes every object of one video and nothing else, repeatably", async () => {
    const creatorId = `cr_delete${process.pid}`;
    const prefix = videoObjectPrefix(creatorId, "vid_a");
    const neighbour = `${videoObjectPrefix(creatorId, "vid_ab")}source`;
    for (const key of [
      `${prefix}source`,
      `${prefix}analysis/signals.json`,
      `${prefix}clips/c1/r0.mp4`,
      neighbour,
    ]) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: "x" }));
    }
    expect(await deletePrefix({ s3, bucket, prefix })).toBe(3);
    expect(await listKeys({ s3, bucket, prefix })).toEqual([]);
    expect(await deletePrefix({ s3, bucket, prefix })).toBe(0);
    expect(await headObject({ s3, bucket, key: neighbour })).toMatchObject({ sizeBytes: 1 });
    await expect(deletePrefix({ s3, bucket, prefix: "creators/" })).rejects.toThrow(/broad/);
  });
});
