import { DeleteBucketCommand, DeleteBucketCorsCommand, GetBucketCorsCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import { provisionResources } from "./provision";
import { testRuntime } from "./test/runtime";

const runtime = testRuntime();
const { config, clients } = runtime;
// A bucket of this file's own: the shared one's CORS rules must not change under other tests.
const aws = { ...config.aws, bucketName: `truss-provision-${process.pid}` };
const sentCommands: string[] = [];
clients.s3.middlewareStack.add(
  (next, context) => async (args) => {
    sentCommands.push(context.commandName ?? "");
    return next(args);
  },
  { step: "initialize", name: "recordCommands" },
);

afterAll(async () => {
  await clients.s3.send(new DeleteBucketCorsCommand({ Bucket: aws.bucketName })).catch(() => {});
  await clients.s3.send(new DeleteBucketCommand({ Bucket: aws.bucketName })).catch(() => {});
});

describe("provisionResources", () => {
  it("writes the bucket's CORS rules only when they differ from what is stored", async () => {
    const provision = async (appOrigin: string) => {
      sentCommands.length = 0;
      await provisionResources({ aws, appOrigin, ...clients });
      return sentCommands.filter((name) => name === "PutBucketCorsCommand").length;
    };
    expect(await provision("http://localhost:3000")).toBe(1);
    // Every start and every test file provisions: an unchanged rule is not rewritten (the
    // embedded S3 server rewrites its CORS file in place, and a request read it half-written).
    expect(await provision("http://localhost:3000")).toBe(0);
    expect(await provision("https://truss.example")).toBe(1);
    const { CORSRules } = await clients.s3.send(new GetBucketCorsCommand({ Bucket: aws.bucketName }));
    expect(CORSRules?.[0]).toMatchObject({
      AllowedOrigins: ["https://truss.example"],
      ExposeHeaders: ["ETag"],
    });
  });
});
