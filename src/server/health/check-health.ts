import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { getQueueUrl } from "@/queue/queue-url";
import type { Runtime } from "@/server/runtime";

export type ServiceState = "ok" | "unavailable";
export type Health = {
  status: "ok" | "degraded";
  services: { table: ServiceState; bucket: ServiceState; queue: ServiceState };
  /** For a failing service, what went wrong (error name only: no internals). */
  problems: Partial<Record<"table" | "bucket" | "queue", string>>;
};

const CHECK_TIMEOUT_MS = 3_000;

async function probe(check: (signal: AbortSignal) => Promise<unknown>): Promise<string | undefined> {
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    await check(signal);
    return undefined;
  } catch (error) {
    if (signal.aborted) return `no answer within ${CHECK_TIMEOUT_MS} ms`;
    return error instanceof Error ? error.name : "unknown error";
  }
}

/** Healthy only when the table, the bucket and the queue all answer. */
export async function checkHealth({ config, clients }: Runtime): Promise<Health> {
  const [table, bucket, queue] = await Promise.all([
    probe((abortSignal) =>
      clients.dynamodb.send(new DescribeTableCommand({ TableName: config.aws.tableName }), { abortSignal }),
    ),
    probe((abortSignal) =>
      clients.s3.send(new HeadBucketCommand({ Bucket: config.aws.bucketName }), { abortSignal }),
    ),
    probe(async (abortSignal) => {
      const queueUrl = await getQueueUrl(clients.sqs, config.aws.queueName);
      await clients.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }),
        {
          abortSignal,
        },
      );
    }),
  ]);
  const problems = Object.fromEntries(
    Object.entries({ table, bucket, queue }).filter(([, problem]) => problem !== undefined),
  ) as Health["problems"];
  const state = (problem: string | undefined): ServiceState => (problem === undefined ? "ok" : "unavailable");
  return {
    status: Object.keys(problems).length === 0 ? "ok" : "degraded",
    services: { table: state(table), bucket: state(bucket), queue: state(queue) },
    problems,
  };
}
