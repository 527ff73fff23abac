import { createServer, type Server, type Socket } from "node:net";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { ListBucketsCommand } from "@aws-sdk/client-s3";
import { ListQueuesCommand } from "@aws-sdk/client-sqs";
import { afterEach, describe, expect, it } from "vitest";
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
    const clients = createAwsClients(
      {
        region: "us-east-1",
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
        roleArn: undefined,
        dynamodbEndpoint: endpoint,
        s3Endpoint: endpoint,
        s3PublicEndpoint: endpoint,
        sqsEndpoint: endpoint,
        stsEndpoint: undefined,
        tableName: "truss",
        bucketName: "truss",
        queueName: "truss-jobs",
        deadLetterQueueName: "truss-jobs-dlq",
      },
      { dynamodb: quick, s3: quick, sqs: quick },
    );
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
