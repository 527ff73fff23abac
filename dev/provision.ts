import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import {
  type CORSRule,
  CreateBucketCommand,
  GetBucketCorsCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { Config } from "@/config";
import { JOB_CATALOG } from "@/worker/catalog";

/**
 * How many receives before the queue itself moves a job message to the dead-letter queue: one
 * more than any job's attempts, so a job whose last attempt took its worker down is received
 * once more and given up by the consumer, which tells the video why (see consumer.ts).
 */
export const MAX_RECEIVES_BEFORE_DLQ =
  Math.max(...Object.values(JOB_CATALOG).map((job) => job.maxAttempts)) + 1;

/**
 * Creates the table, bucket and queues if they are missing; safe to run on every start.
 * Used for the embedded services (and usable once against a fresh AWS account).
 */
export async function provisionResources(options: {
  aws: Config["aws"];
  appOrigin: string;
  dynamodb: DynamoDBClient;
  s3: S3Client;
  sqs: SQSClient;
}): Promise<void> {
  await Promise.all([provisionTable(options), provisionBucket(options), provisionQueues(options)]);
}

async function provisionTable({ aws, dynamodb }: { aws: Config["aws"]; dynamodb: DynamoDBClient }) {
  const TableName = aws.tableName;
  try {
    await dynamodb.send(
      new CreateTableCommand({
        TableName,
        // One table, string PK/SK, no secondary indexes (docs/data-model.md).
        AttributeDefinitions: [
          { AttributeName: "PK", AttributeType: "S" },
          { AttributeName: "SK", AttributeType: "S" },
        ],
        KeySchema: [
          { AttributeName: "PK", KeyType: "HASH" },
          { AttributeName: "SK", KeyType: "RANGE" },
        ],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName });
  const ttl = await dynamodb.send(new DescribeTimeToLiveCommand({ TableName }));
  const ttlStatus = ttl.TimeToLiveDescription?.TimeToLiveStatus;
  if (ttlStatus !== "ENABLED" && ttlStatus !== "ENABLING") {
    await dynamodb.send(
      new UpdateTimeToLiveCommand({
        TableName,
        TimeToLiveSpecification: { AttributeName: "expiresAt", Enabled: true },
      }),
    );
  }
  await dynamodb.send(new DescribeTableCommand({ TableName }));
}

async function provisionBucket({
  aws,
  s3,
  appOrigin,
}: {
  aws: Config["aws"];
  s3: S3Client;
  appOrigin: string;
}) {
  const Bucket = aws.bucketName;
  const exists = await s3.send(new HeadBucketCommand({ Bucket })).then(
    () => true,
    () => false,
  );
  if (!exists) await s3.send(new CreateBucketCommand({ Bucket }));
  // Browsers PUT parts straight to the bucket and need the ETag of each part back.
  const rules: CORSRule[] = [
    {
      AllowedOrigins: [appOrigin],
      AllowedMethods: ["GET", "PUT", "HEAD"],
      AllowedHeaders: ["*"],
      ExposeHeaders: ["ETag"],
      MaxAgeSeconds: 3600,
    },
  ];
  // Written only when it differs: every start (and every test file) provisions, and the
  // embedded S3 server rewrites its CORS file in place, so a request it served meanwhile read
  // half a file and failed (a part PUT answered 500 beside a concurrent provision).
  const current = await s3.send(new GetBucketCorsCommand({ Bucket })).then(
    (output) => output.CORSRules ?? [],
    () => [],
  );
  if (corsRulesKey(current) === corsRulesKey(rules)) return;
  await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: rules } }));
}

/** The parts of CORS rules that matter, in a comparable form (lists sorted, absent = empty). */
function corsRulesKey(rules: CORSRule[]): string {
  const sorted = (values: string[] | undefined) => [...(values ?? [])].sort();
  return JSON.stringify(
    rules.map((rule) => [
      sorted(rule.AllowedOrigins),
      sorted(rule.AllowedMethods),
      sorted(rule.AllowedHeaders),
      sorted(rule.ExposeHeaders),
      rule.MaxAgeSeconds ?? null,
    ]),
  );
}

async function provisionQueues({ aws, sqs }: { aws: Config["aws"]; sqs: SQSClient }) {
  const deadLetter = await sqs.send(
    new CreateQueueCommand({
      QueueName: aws.deadLetterQueueName,
      Attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) },
    }),
  );
  const deadLetterAttributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: deadLetter.QueueUrl, AttributeNames: ["QueueArn"] }),
  );
  const deadLetterArn = deadLetterAttributes.Attributes?.QueueArn;
  if (!deadLetterArn) throw new Error(`Queue ${aws.deadLetterQueueName} has no ARN`);
  await sqs.send(
    new CreateQueueCommand({
      QueueName: aws.queueName,
      Attributes: {
        VisibilityTimeout: "120",
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: deadLetterArn,
          maxReceiveCount: MAX_RECEIVES_BEFORE_DLQ,
        }),
      },
    }),
  );
}
