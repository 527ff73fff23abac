import { createServer, type Server, type Socket } from "node:net";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { ListBucketsCommand } from "@aws-sdk/client-s3";
import { ListQueuesCommand } from "@aws-sdk/client-sqs";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/config";
import { createAwsClients } from "./clients";

let server: Server | undefined;
const sockets = new Set<Socket>();

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A DynamoDB endpoint that accepts connections and reads requests but never answers. */
async function silentEndpoint(): Promise<string> {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

describe("createAwsClients", () => {
  it("gives up on an endpoint that never answers, DynamoDB, S3 and SQS alike, instead of waiting minutes", async () => {
    const endpoint = await silentEndpoint();
    const quick = { connectionTimeoutMs: 1_000, socketIdleTimeoutMs: 300 };
    const { aws } = parseConfig(
      {
        TRUSS_DATA_DIR: "/tmp/truss-unused",
        DYNAMODB_ENDPOINT: endpoint,
        S3_ENDPOINT: endpoint,
        S3_PUBLIC_ENDPOINT: endpoint,
        SQS_ENDPOINT: endpoint,
      },
      { readSecretFile: () => "x".repeat(32) },
    );
    const clients = createAwsClients(aws, { dynamodb: quick, s3: quick, sqs: quick });
    const calls = {
      dynamodb: () => clients.dynamodb.send(new ListTablesCommand({})),
      s3: () => clients.s3.send(new ListBucketsCommand({})),
      sqs: () => clients.sqs.send(new ListQueuesCommand({})),
    };
    for (const [service, call] of Object.entries(calls)) {
      const startedAt = performance.now();
      const failure = await call().catch((error: unknown) => error);
      const elapsedMs = performance.now() - startedAt;
      expect((failure as Error).name, service).toBe("TimeoutError");
      // Each attempt gives up after 300 ms idle; the SDK's retries and backoff add the rest.
      expect((failure as { $metadata?: { attempts?: number } }).$metadata?.attempts, service).toBeGreaterThan(
        1,
      );
      expect(elapsedMs, service).toBeLessThan(5_000);
    }
  }, 30_000);
});
