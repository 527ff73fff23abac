import { GetQueueUrlCommand, type SQSClient } from "@aws-sdk/client-sqs";

const urlsByClient = new WeakMap<SQSClient, Map<string, Promise<string>>>();

/** Queue names are configuration; their URLs are looked up once per client and name. */
export function getQueueUrl(sqs: SQSClient, queueName: string): Promise<string> {
  let urls = urlsByClient.get(sqs);
  if (!urls) {
    urls = new Map();
    urlsByClient.set(sqs, urls);
  }
  const cached = urls.get(queueName);
  if (cached) return cached;
  const lookup = sqs.send(new GetQueueUrlCommand({ QueueName: queueName })).then((output) => {
    if (!output.QueueUrl) throw new Error(`Queue ${queueName} has no URL`);
    return output.QueueUrl;
  });
  // A failed lookup (queue not created yet, service down) must not be cached.
  lookup.catch(() => urls.delete(queueName));
  urls.set(queueName, lookup);
  return lookup;
}
