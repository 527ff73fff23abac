import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Config } from "@/config";

export type AwsClients = {
  dynamodb: DynamoDBClient;
  documentClient: DynamoDBDocumentClient;
  /** Talks to S3 from the server (HeadObject, multipart bookkeeping, worker downloads). */
  s3: S3Client;
  /** Signs URLs for the browser: same credentials, but the endpoint the browser reaches. */
  s3Presigner: S3Client;
  sqs: SQSClient;
};

type AwsConfig = Config["aws"];

function s3ClientFor(aws: AwsConfig, endpoint: string | undefined, timeouts: ClientTimeouts): S3Client {
  const client = new S3Client({
    region: aws.region,
    endpoint,
    credentials: aws.credentials,
    requestHandler: requestHandler(timeouts),
    // Path-style works with every S3-compatible server; virtual-host style needs wildcard DNS.
    forcePathStyle: endpoint !== undefined,
    // The SDK's default "WHEN_SUPPORTED" adds a CRC32 of the (empty) body to presigned URLs,
    // which a browser upload can never match. Only checksum when an API requires it.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  if (aws.credentials) {
    // The embedded S3 server (s3rver) verifies signatures over `/bucket` but the SDK signs
    // bucket-level calls as `/bucket/`; drop the trailing slash before signing. Only needed,
    // and only installed, for the emulator.
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path?: string };
        if (request.path && /^\/[^/]+\/$/.test(request.path)) request.path = request.path.slice(0, -1);
        return next(args);
      },
      { step: "build", name: "trussStripBucketTrailingSlash" },
    );
  }
  return client;
}

/** How long a request may take to connect, then wait for each next byte of its answer. */
export type ClientTimeouts = { connectionTimeoutMs: number; socketIdleTimeoutMs: number };
export type AwsClientTimeouts = Record<"dynamodb" | "s3" | "sqs", ClientTimeouts>;

/**
 * Past these an answer is not coming (an endpoint that hangs, a connection dropped without a
 * reset), and the call fails, so a page shows its error and a job retries. The SDK's own limits
 * are 5 minutes idle for DynamoDB, 15 for SQS and none for S3, per attempt, three attempts: a
 * frozen DynamoDB Local held the dashboard past 90 s.
 * - DynamoDB answers in milliseconds (DynamoDB Local within a second or two, warming up). Not
 *   shorter: a write that timed out may have been applied all the same, and its retry would then
 *   meet its own condition.
 * - SQS holds a receive open for up to 20 s (long polling).
 * - S3 may say nothing for a while before answering CompleteMultipartUpload of a large file (the
 *   embedded server joins the parts on disk first).
 */
export const AWS_CLIENT_TIMEOUTS: AwsClientTimeouts = {
  dynamodb: { connectionTimeoutMs: 3_000, socketIdleTimeoutMs: 10_000 },
  sqs: { connectionTimeoutMs: 3_000, socketIdleTimeoutMs: 60_000 },
  s3: { connectionTimeoutMs: 3_000, socketIdleTimeoutMs: 120_000 },
};

function requestHandler(timeouts: ClientTimeouts) {
  return { connectionTimeout: timeouts.connectionTimeoutMs, socketTimeout: timeouts.socketIdleTimeoutMs };
}

/** One set of clients per process; endpoints and credentials come only from config. */
export function createAwsClients(aws: AwsConfig, timeouts = AWS_CLIENT_TIMEOUTS): AwsClients {
  const dynamodb = new DynamoDBClient({
    region: aws.region,
    endpoint: aws.dynamodbEndpoint,
    credentials: aws.credentials,
    requestHandler: requestHandler(timeouts.dynamodb),
  });
  return {
    dynamodb,
    documentClient: DynamoDBDocumentClient.from(dynamodb, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    }),
    s3: s3ClientFor(aws, aws.s3Endpoint, timeouts.s3),
    s3Presigner: s3ClientFor(aws, aws.s3PublicEndpoint, timeouts.s3),
    sqs: new SQSClient({
      region: aws.region,
      endpoint: aws.sqsEndpoint,
      credentials: aws.credentials,
      requestHandler: requestHandler(timeouts.sqs),
    }),
  };
}
