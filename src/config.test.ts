import { describe, expect, it } from "vitest";
import { DEFAULT_SCORING_WEIGHTS } from "@/engine/scoring/weights";
import { ConfigError, parseConfig } from "./config";

const noSecretFile = { readSecretFile: () => "generated-secret-for-tests-0123456789" };

describe("parseConfig", () => {
  it("runs with nothing set: embedded services on local ports", () => {
    const config = parseConfig({}, noSecretFile);
    expect(config.services).toBe("embedded");
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe("http://localhost:3000");
    expect(config.aws.dynamodbEndpoint).toBe("http://127.0.0.1:8700");
    expect(config.aws.s3Endpoint).toBe("http://127.0.0.1:8701");
    expect(config.aws.s3PublicEndpoint).toBe("http://localhost:8701");
    expect(config.aws.credentials).toEqual({ accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
    expect(config.auth.secret).toBe("generated-secret-for-tests-0123456789");
    expect(config.uploads.multipartThresholdBytes).toBe(64 * 1024 * 1024);
  });

  it("switches to AWS by configuration alone: default credential chain, real endpoints", () => {
    const config = parseConfig(
      {
        TRUSS_SERVICES: "aws",
        AWS_REGION: "eu-west-1",
        TRUSS_TABLE_NAME: "truss-prod",
        TRUSS_BUCKET_NAME: "truss-prod-media",
        TRUSS_QUEUE_NAME: "truss-prod-jobs",
        AUTH_SECRET: "p".repeat(40),
        SMTP_URL: "smtps://truss:secret@smtp.example.com:465",
        NODE_ENV: "production",
      },
      noSecretFile,
    );
    expect(config.aws.credentials).toBeUndefined();
    expect(config.aws.dynamodbEndpoint).toBeUndefined();
    expect(config.aws.s3Endpoint).toBeUndefined();
    expect(config.aws.tableName).toBe("truss-prod");
    expect(config.aws.region).toBe("eu-west-1");
  });

  it("names every bad variable and what it expects", () => {
    let error: unknown;
    try {
      parseConfig(
        {
          PORT: "eighty",
          TRUSS_BUCKET_NAME: "Bad_Bucket",
          SMTP_URL: "mail.example.com",
          IMPORT_ALLOW_PRIVATE_ADDRESSES: "maybe",
        },
        noSecretFile,
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain("PORT");
    expect(message).toContain("TRUSS_BUCKET_NAME: must be a valid S3 bucket name");
    expect(message).toContain("SMTP_URL: must be an smtp:// or smtps:// URL");
    expect(message).toContain("IMPORT_ALLOW_PRIVATE_ADDRESSES: must be true or false");
  });

  it("reads scoring weights, and names a bad one", () => {
    expect(parseConfig({}, noSecretFile).analysis.scoringWeights).toEqual(DEFAULT_SCORING_WEIGHTS);
    expect(
      parseConfig({ TRUSS_SCORING_WEIGHTS: "hook=0.5,chat=0" }, noSecretFile).analysis.scoringWeights,
    ).toEqual({ ...DEFAULT_SCORING_WEIGHTS, hook: 0.5, chat: 0 });
    expect(() => parseConfig({ TRUSS_SCORING_WEIGHTS: "hype=1" }, noSecretFile)).toThrow(
      /TRUSS_SCORING_WEIGHTS: "hype" is not a sub-score/,
    );
  });

  it("requires a real secret and a mail server in production on AWS", () => {
    expect(() => parseConfig({ TRUSS_SERVICES: "aws", NODE_ENV: "production" }, noSecretFile)).toThrow(
      /AUTH_SECRET/,
    );
    expect(() =>
      parseConfig(
        { TRUSS_SERVICES: "aws", NODE_ENV: "production", AUTH_SECRET: "p".repeat(40) },
        noSecretFile,
      ),
    ).toThrow(/SMTP_URL: required when TRUSS_SERVICES=aws in production/);
    // Embedded (npm start, also a production build) keeps its local outbox.
    expect(parseConfig({ NODE_ENV: "production" }, noSecretFile).mail.smtpUrl).toBeUndefined();
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ PORT: "", APP_URL: "" }, noSecretFile).port).toBe(3000);
  });
});
