/**
 * `npm run bench:upload` — what does the presigned upload path cost, and does the web server
 * stay out of the bytes?
 *
 * Starts the embedded services and the app (`next start`, no worker) on free ports, signs a
 * creator in, then for files of 100 MB and 1 GB (`--sizes-mb 100,1024` to change):
 *   - uploads through the presigned path exactly as the browser does: POST /api/videos →
 *     PUT the parts straight to the S3 server, 4 at a time (more part URLs from
 *     POST /api/videos/{id}/upload-parts) → POST /api/videos/{id}/upload-complete;
 *   - uploads the same file with one direct PUT to the same S3 server;
 *   - samples the `next start` process tree's resident memory (/proc/<pid>/status VmRSS) every
 *     50 ms during each upload.
 * Prints throughput of both paths, their ratio, and the web server's RSS before and at peak.
 * The peak must not grow with the file size: the app only ever sees small JSON requests.
 */

import { randomBytes } from "node:crypto";
import {
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { createSignedInCreator } from "@/server/auth/testing/create-signed-in-creator";
import { createRuntime } from "@/server/runtime";
import { sourceObjectKey } from "@/storage/object-keys";
import { presignSinglePut } from "@/storage/presign";
import { ensureBuild } from "../dev/ensure-build";
import { findFreePort } from "../dev/services";
import { startStack } from "../dev/start";

const MiB = 1024 * 1024;
const PART_CONCURRENCY = 4;
const SAMPLE_INTERVAL_MS = 50;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const sizesMb = (argument("--sizes-mb") ?? "100,1024").split(",").map(Number);

/** A file of incompressible bytes (1 MiB of random data repeated), written in 8 MiB writes. */
function writeTestFile(filePath: string, sizeBytes: number): void {
  const block = randomBytes(MiB);
  const chunk = Buffer.concat(Array.from({ length: 8 }, () => block));
  const fd = openSync(filePath, "w");
  try {
    for (let written = 0; written < sizeBytes; ) {
      const length = Math.min(chunk.length, sizeBytes - written);
      writeSync(fd, chunk, 0, length);
      written += length;
    }
  } finally {
    closeSync(fd);
  }
}

/** PUTs bytes [start, end) of a file to a URL, streaming from disk with an exact Content-Length. */
function putFileRange(options: {
  url: string;
  headers: Record<string, string>;
  filePath: string;
  start: number;
  end: number;
}): Promise<{ etag: string }> {
  const { url, headers, filePath, start, end } = options;
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "PUT", headers: { ...headers, "content-length": String(end - start) }, agent: keepAlive },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode === 200) resolve({ etag: String(response.headers.etag ?? "") });
          else
            reject(
              new Error(
                `PUT answered ${response.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`,
              ),
            );
        });
      },
    );
    request.on("error", reject);
    if (end > start) createReadStream(filePath, { start, end: end - 1 }).pipe(request);
    else request.end();
  });
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: PART_CONCURRENCY * 2 });

/** The pids of a process and its descendants. */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parentPid, [...(children.get(parentPid) ?? []), Number(entry)]);
    } catch {
      // The process ended between listing and reading.
    }
  }
  const pids: number[] = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    pids.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return pids;
}

/** Sums a number read from /proc/<pid>/<file> over a process tree (0 for processes gone). */
function sumOverTree(rootPid: number, file: string, pattern: RegExp, unitBytes: number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) {
    try {
      total += Number(pattern.exec(readFileSync(`/proc/${pid}/${file}`, "utf8"))?.[1] ?? 0) * unitBytes;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** Resident memory of the web server's process tree. */
const treeRssBytes = (rootPid: number) => sumOverTree(rootPid, "status", /VmRSS:\s+(\d+) kB/, 1024);

/** Bytes the web server's processes have read (sockets and files alike): the bytes it handled. */
const treeReadBytes = (rootPid: number) => sumOverTree(rootPid, "io", /rchar:\s+(\d+)/, 1);

function peakWebHwmBytes(rootPid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${rootPid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Samples the web server's RSS while `work` runs. */
async function whileSampling<T>(pid: number, work: () => Promise<T>) {
  const before = treeRssBytes(pid);
  const readBefore = treeReadBytes(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssBytes(pid));
  }, SAMPLE_INTERVAL_MS);
  const startedMs = performance.now();
  try {
    const result = await work();
    return {
      result,
      seconds: (performance.now() - startedMs) / 1000,
      rssBeforeBytes: before,
      rssPeakBytes: peak,
      webReadBytes: treeReadBytes(pid) - readBefore,
    };
  } finally {
    clearInterval(timer);
  }
}

type ApiClient = <T>(method: string, pathName: string, body?: unknown) => Promise<T>;

function apiClient(appUrl: string, cookie: string): ApiClient {
  return async (method, pathName, body) => {
    const response = await fetch(`${appUrl}${pathName}`, {
      method,
      headers: {
        cookie,
        origin: appUrl,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${method} ${pathName} answered ${response.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as never;
  };
}

type Part = { partNumber: number; sizeBytes: number; url: string; headers: Record<string, string> };
type Created = {
  video: { id: string };
  upload:
    | { kind: "single"; url: string; headers: Record<string, string> }
    | { kind: "multipart"; partSizeBytes: number; partCount: number; parts: Part[] };
};

/** The browser's way: create → parts straight to storage, 4 at a time → complete. */
async function uploadThroughApp(
  api: ApiClient,
  filePath: string,
  sizeBytes: number,
): Promise<{ videoId: string; bytesSeconds: number; completeSeconds: number }> {
  const startedMs = performance.now();
  const created = await api<Created>("POST", "/api/videos", {
    filename: path.basename(filePath),
    contentType: "video/mp4",
    sizeBytes,
  });
  const videoId = created.video.id;
  const { upload } = created;
  if (upload.kind === "single") {
    await putFileRange({ url: upload.url, headers: upload.headers, filePath, start: 0, end: sizeBytes });
    const bytesDoneMs = performance.now();
    await api("POST", `/api/videos/${videoId}/upload-complete`, {});
    return {
      videoId,
      bytesSeconds: (bytesDoneMs - startedMs) / 1000,
      completeSeconds: (performance.now() - bytesDoneMs) / 1000,
    };
  }
  const urls = new Map(upload.parts.map((part) => [part.partNumber, part]));
  const pending = Array.from({ length: upload.partCount }, (_, index) => index + 1);
  const etags: { partNumber: number; etag: string }[] = [];
  await Promise.all(
    Array.from({ length: PART_CONCURRENCY }, async () => {
      for (let partNumber = pending.shift(); partNumber !== undefined; partNumber = pending.shift()) {
        let part = urls.get(partNumber);
        if (!part) {
          const batch = [partNumber, ...pending.filter((n) => !urls.has(n)).slice(0, 19)];
          const signed = await api<{ parts: Part[] }>("POST", `/api/videos/${videoId}/upload-parts`, {
            partNumbers: batch,
          });
          for (const item of signed.parts) urls.set(item.partNumber, item);
          part = urls.get(partNumber)!;
        }
        const start = (partNumber - 1) * upload.partSizeBytes;
        const { etag } = await putFileRange({
          url: part.url,
          headers: part.headers,
          filePath,
          start,
          end: start + part.sizeBytes,
        });
        etags.push({ partNumber, etag });
      }
    }),
  );
  const bytesDoneMs = performance.now();
  await api("POST", `/api/videos/${videoId}/upload-complete`, { parts: etags });
  return {
    videoId,
    bytesSeconds: (bytesDoneMs - startedMs) / 1000,
    completeSeconds: (performance.now() - bytesDoneMs) / 1000,
  };
}

const mb = (bytes: number) => bytes / 1e6;
const fmt = (value: number, digits = 1) => value.toFixed(digits);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "truss-bench-upload-"));
  const filesDir = mkdtempSync(path.join(os.tmpdir(), "truss-bench-files-"));
  const port = await findFreePort();
  const appUrl = `http://localhost:${port}`;
  const environment = {
    ...process.env,
    NODE_ENV: "production",
    TRUSS_DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: appUrl,
    TRUSS_DYNAMODB_PORT: String(await findFreePort()),
    TRUSS_S3_PORT: String(await findFreePort()),
    TRUSS_SQS_PORT: String(await findFreePort()),
    AUTH_SECRET: "bench-upload-secret-0123456789abcdef0123",
    TRUSS_SERVICES: "embedded",
    UPLOAD_MAX_BYTES: String(20 * 1024 * MiB),
  };
  await ensureBuild({
    projectRoot: path.resolve(import.meta.dirname, ".."),
    log: (line) => console.log(line),
  });
  console.log("Starting the embedded services and the app (next start)…");
  const stack = await startStack({ environment, inMemory: true, withWorker: false, log: () => {} });
  try {
    const runtime = createRuntime(stack.config);
    const { cookie, creatorId } = await createSignedInCreator({ runtime });
    const api = apiClient(stack.appUrl, cookie);
    const { uploads } = stack.config;
    console.log(
      `App ${stack.appUrl} (next start pid ${stack.appPid}), multipart above ${uploads.multipartThresholdBytes / MiB} MiB in ${uploads.partSizeBytes / MiB} MiB parts, ${PART_CONCURRENCY} at a time.\n`,
    );

    // Warm up: the first requests compile and load each route, which would count as "growth".
    const warmUpPath = path.join(filesDir, "warm-up.mp4");
    for (const warmUpBytes of [MiB, uploads.multipartThresholdBytes + MiB]) {
      writeTestFile(warmUpPath, warmUpBytes);
      const { videoId } = await uploadThroughApp(api, warmUpPath, warmUpBytes);
      await api("DELETE", `/api/videos/${videoId}`);
    }
    rmSync(warmUpPath, { force: true });

    const rows: string[][] = [];
    for (const sizeMb of sizesMb) {
      const sizeBytes = Math.round(sizeMb * MiB);
      const filePath = path.join(filesDir, `bench-${sizeMb}mb.mp4`);
      writeTestFile(filePath, sizeBytes);

      const viaApp = await whileSampling(stack.appPid, () => uploadThroughApp(api, filePath, sizeBytes));
      const directKey = sourceObjectKey(creatorId, `vid_direct${sizeMb}`);
      const direct = await whileSampling(stack.appPid, async () => {
        const key = directKey;
        const request = await presignSinglePut({
          presigner: runtime.clients.s3,
          bucket: runtime.config.aws.bucketName,
          key,
          contentType: "video/mp4",
          contentLengthBytes: sizeBytes,
        });
        await putFileRange({
          url: request.url,
          headers: request.headers,
          filePath,
          start: 0,
          end: sizeBytes,
        });
      });
      // Free the disk for the next size: both objects and the local file.
      await api("DELETE", `/api/videos/${viaApp.result.videoId}`);
      await runtime.clients.s3.send(
        new DeleteObjectCommand({ Bucket: runtime.config.aws.bucketName, Key: directKey }),
      );
      rmSync(filePath, { force: true });

      rows.push([
        `${sizeMb} MiB`,
        `${fmt(mb(sizeBytes) / viaApp.seconds)} MB/s (${fmt(viaApp.seconds, 2)} s)`,
        `${fmt(mb(sizeBytes) / direct.seconds)} MB/s (${fmt(direct.seconds, 2)} s)`,
        fmt(direct.seconds / viaApp.seconds, 2),
        `${fmt(viaApp.result.bytesSeconds, 2)} s + ${fmt(viaApp.result.completeSeconds, 2)} s`,
        fmt(direct.seconds / viaApp.result.bytesSeconds, 2),
        `${fmt(mb(viaApp.rssBeforeBytes))} MB`,
        `${fmt(mb(Math.max(viaApp.rssPeakBytes, direct.rssPeakBytes)))} MB`,
        `${fmt(mb(Math.max(viaApp.rssPeakBytes, direct.rssPeakBytes) - viaApp.rssBeforeBytes))} MB`,
        `${fmt(viaApp.webReadBytes / 1e3, 0)} KB`,
      ]);
    }

    const header = [
      "file",
      "presigned path (app + S3)",
      "direct PUT to S3",
      "presigned/direct",
      "bytes + complete",
      "bytes only/direct",
      "web RSS before",
      "web RSS peak",
      "growth",
      "web read",
    ];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => row[column]!.length)),
    );
    const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
    console.log(line(header));
    console.log(widths.map((width) => "-".repeat(width)).join("  "));
    for (const row of rows) console.log(line(row));
    console.log(
      "\nThroughput ratio = presigned-path throughput / direct-PUT throughput (1.00 = no cost). " +
        "`bytes + complete`: time to create the upload and send every byte, then time for upload-complete " +
        "(the embedded S3 server assembles multipart objects by copying every part once more at completion; AWS S3 does not); " +
        "`bytes only/direct` compares just the sending of the bytes with the direct PUT. " +
        `Web RSS is the \`next start\` process tree, sampled every ${SAMPLE_INTERVAL_MS} ms; its lifetime high-water mark (VmHWM) was ${fmt(mb(peakWebHwmBytes(stack.appPid)))} MB. ` +
        "`web read`: bytes the web server's processes read (/proc/<pid>/io rchar: sockets and files) during the presigned upload.",
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(filesDir, { recursive: true, force: true });
    keepAlive.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
