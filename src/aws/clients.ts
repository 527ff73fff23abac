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

function s3ClientFor(aws: AwsConfig, endpoint: string | undefined): S3Client {
  const client = new S3Client({
    region: aws.region,
    endpoint,
    credentials: aws.credentials,
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

export type DynamoDbTimeouts = { connectionTimeoutMs: number; socketIdleTimeoutMs: number };

/**
 * DynamoDB answers in milliseconds (DynamoDB Local within a second or two, warming up); a
 * request that hears nothing for 10 s will not be answered: an endpoint that hangs, a dropped
 * connection. The SDK's own limit is 5 minutes idle, per attempt, three attempts: a page would
 * wait a quarter of an hour before showing its error.
 */
export const DYNAMODB_TIMEOUTS: DynamoDbTimeouts = {
  connectionTimeoutMs: 3_000,
  socketIdleTimeoutMs: 10_000,
};

/** One set of clients per process; endpoints and credentials come only from config. */
export function createAwsClients(aws: AwsConfig, dynamodbTimeouts = DYNAMODB_TIMEOUTS): AwsClients {
  const dynamodb = new DynamoDBClient({
    region: aws.region,
    endpoint: aws.dynamodbEndpoint,
    credentials: aws.credentials,
    requestHandler: {
      connectionTimeout: dynamodbTimeouts.connectionTimeoutMs,
      socketTimeout: dynamodbTimeouts.socketIdleTimeoutMs,
    },
  });
  return {
    dynamodb,
    documentClient: DynamoDBDocumentClient.from(dynamodb, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    }),
    s3: s3ClientFor(aws, aws.s3Endpoint),
    s3Presigner: s3ClientFor(aws, aws.s3PublicEndpoint),
    sqs: new SQSClient({ region: aws.region, endpoint: aws.sqsEndpoint, credentials: aws.credentials }),
  };
}
