import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadFile } from "./object-io";

// A stand-in for S3's PutObject that drops the first connection before answering, as a server
// does when it closes an idle keep-alive connection just as the client reuses it. The SDK
// retries such a request; what matters is what the retry carries.
let server: http.Server;
let endpoint: string;
let attempts = 0;
let dropWhen: "at once" | "after the body" = "at once";
const receivedBodies: Buffer[] = [];
let workDir: string;

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    attempts += 1;
    if (attempts === 1 && dropWhen === "at once") {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (attempts === 1) {
      request.socket.destroy();
      return;
    }
    receivedBodies.push(Buffer.concat(chunks));
    response.writeHead(200, { etag: '"stand-in"' });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workDir = await mkdtemp(path.join(os.tmpdir(), "truss-object-io-"));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(workDir, { recursive: true, force: true });
});

describe("uploadFile", () => {
  it.each(["at once", "after the body"] as const)(
    "sends the whole file again when the connection drops %s, before the answer",
    async (when) => {
      attempts = 0;
      dropWhen = when;
      receivedBodies.length = 0;
      const filePath = path.join(workDir, "clip.mp4");
      const bytes = randomBytes(256 * 1024);
      await writeFile(filePath, bytes);
      const s3 = new S3Client({
        region: "us-east-1",
        endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
        requestHandler: { requestTimeout: 10_000 },
      });
      await uploadFile({ s3, bucket: "media", key: "clip.mp4", filePath, contentType: "video/mp4" });
      expect(attempts).toBe(2);
      expect(receivedBodies).toHaveLength(1);
      expect(receivedBodies[0]!.equals(bytes)).toBe(true);
    },
  );
});
