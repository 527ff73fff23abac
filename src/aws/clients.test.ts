import { createServer, type Server, type Socket } from "node:net";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
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
  it("gives up on a DynamoDB endpoint that never answers, every attempt, instead of waiting minutes", async () => {
    const { dynamodb } = createAwsClients(
      {
        region: "us-east-1",
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
        roleArn: undefined,
        dynamodbEndpoint: await silentEndpoint(),
        s3Endpoint: undefined,
        s3PublicEndpoint: undefined,
        sqsEndpoint: undefined,
        stsEndpoint: undefined,
        tableName: "truss",
        bucketName: "truss",
        queueName: "truss-jobs",
        deadLetterQueueName: "truss-jobs-dlq",
      },
      { connectionTimeoutMs: 1_000, socketIdleTimeoutMs: 300 },
    );
    const startedAt = performance.now();
    const failure = await dynamodb.send(new ListTablesCommand({})).catch((error: unknown) => error);
    const elapsedMs = performance.now() - startedAt;
    expect((failure as Error).name).toBe("TimeoutError");
    // Each attempt gives up after 300 ms idle; the SDK's retries and backoff add the rest.
    expect((failure as { $metadata?: { attempts?: number } }).$metadata?.attempts).toBeGreaterThan(1);
    expect(elapsedMs).toBeLessThan(5_000);
  }, 15_000);
});
