import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_SCORING_WEIGHTS, parseWeights } from "@/engine/scoring/weights";
import type { ScoringWeights } from "@/engine/types";

/**
 * The one place that reads `process.env`. Everything else receives a typed `Config`
 * (or the piece of it it needs) as an argument, so tests can pass their own.
 *
 * Two modes:
 * - `embedded` (default): DynamoDB Local, the S3 emulator and the SQS emulator run on this
 *   machine (see dev/services.ts); endpoints and credentials are derived from the ports.
 * - `aws`: the SDK's default credential chain (or STS web identity) and real endpoints, unless
 *   an endpoint is set explicitly. Table, bucket and queue names come from the environment.
 */

const MiB = 1024 * 1024;

const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "must be true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  /** Public origin of the web app; links in emails are built from it. */
  APP_URL: httpUrl.optional(),
  TRUSS_DATA_DIR: z.string().min(1).default(".data"),
  TRUSS_SERVICES: z.enum(["embedded", "aws"]).default("embedded"),
  TRUSS_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),

  // Embedded service ports (127.0.0.1 only).
  TRUSS_DYNAMODB_PORT: port.default(8700),
  TRUSS_S3_PORT: port.default(8701),
  TRUSS_SQS_PORT: port.default(8702),

  // AWS (or AWS-compatible) resources.
  AWS_REGION: z.string().min(1).default("us-east-1"),
  DYNAMODB_ENDPOINT: httpUrl.optional(),
  S3_ENDPOINT: httpUrl.optional(),
  /** Origin the browser uses for presigned URLs, when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: httpUrl.optional(),
  SQS_ENDPOINT: httpUrl.optional(),
  STS_ENDPOINT: httpUrl.optional(),
  TRUSS_TABLE_NAME: z.string().min(3).max(255).default("truss"),
  TRUSS_BUCKET_NAME: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a valid S3 bucket name")
    .default("truss-media"),
  TRUSS_QUEUE_NAME: z.string().min(1).max(80).default("truss-jobs"),
  TRUSS_DLQ_NAME: z.string().min(1).max(80).default("truss-jobs-dlq"),
  /** Role to assume with a web identity token (Vercel OIDC) instead of static keys. */
  AWS_ROLE_ARN: z.string().startsWith("arn:", "must be an IAM role ARN").optional(),

  // Auth and mail.
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  MAGIC_LINK_TTL_MINUTES: positiveInt.max(24 * 60).default(15),
  SESSION_TTL_DAYS: positiveInt.max(365).default(30),
  /**
   * Proxies in front of the web app that append the address they saw to X-Forwarded-For (a
   * load balancer, a CDN). Rate limits key on the entry the outermost one appended; entries to
   * its left are whatever the client sent. With no proxy, Next sets the header from the socket
   * only when the client sent none, so a client can rotate it: production belongs behind a
   * proxy that appends (the per-inbox email limit holds either way; docs/auth.md).
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Truss <no-reply@truss.local>"),

  // Uploads.
  UPLOAD_MULTIPART_THRESHOLD_BYTES: positiveInt.min(5 * MiB).default(64 * MiB),
  UPLOAD_PART_SIZE_BYTES: positiveInt.min(5 * MiB).default(16 * MiB),
  UPLOAD_MAX_BYTES: positiveInt.default(10_000_000_000), // 10 GB, as a file manager writes sizes
  VIDEO_MAX_DURATION_SECONDS: positiveInt.default(4 * 60 * 60),
  UPLOAD_ABANDON_AFTER_HOURS: positiveInt.default(24),
  IMPORT_ALLOW_PRIVATE_ADDRESSES: booleanString.default(false),
  IMPORT_TIMEOUT_SECONDS: positiveInt.default(30 * 60),

  // Analysis.
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().min(1).optional(),
  GEMINI_MODEL: z.string().min(1).default("gemini-flash-latest"),
  GEMINI_BASE_URL: httpUrl.optional(),
  /**
   * How much each sub-score counts towards a clip's score, e.g. `hook=0.3,speech=0.3`; names
   * left out keep their default (src/engine/scoring/weights.ts). A clip keeps its score until
   * it is scored again (an edit, new captions): keep the weights fixed to keep scores comparable.
   */
  TRUSS_SCORING_WEIGHTS: z.string().min(1).optional(),
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  WORKER_CONCURRENCY: positiveInt.max(16).default(2),
  /**
   * How long a received job stays invisible to other workers; the worker extends it while the
   * job runs, so this is how soon a job of a crashed worker is picked up again. SQS allows 12 h.
   */
  WORKER_VISIBILITY_TIMEOUT_SECONDS: positiveInt.min(5).max(43_200).default(120),
});

export type Env = z.infer<typeof EnvSchema>;

export type Config = {
  nodeEnv: Env["NODE_ENV"];
  port: number;
  appUrl: string;
  dataDir: string;
  services: Env["TRUSS_SERVICES"];
  logLevel: Env["TRUSS_LOG_LEVEL"];
  aws: {
    region: string;
    /** Static credentials for the embedded emulators; undefined = SDK default chain. */
    credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    roleArn: string | undefined;
    dynamodbEndpoint: string | undefined;
    s3Endpoint: string | undefined;
    s3PublicEndpoint: string | undefined;
    sqsEndpoint: string | undefined;
    stsEndpoint: string | undefined;
    tableName: string;
    bucketName: string;
    queueName: string;
    deadLetterQueueName: string;
  };
  embedded: { dynamodbPort: number; s3Port: number; sqsPort: number };
  auth: {
    secret: string;
    magicLinkTtlMinutes: number;
    sessionTtlDays: number;
    trustedProxyHops: number;
  };
  mail: { smtpUrl: string | undefined; from: string; outboxPath: string };
  uploads: {
    multipartThresholdBytes: number;
    partSizeBytes: number;
    maxBytes: number;
    maxDurationSeconds: number;
    abandonAfterHours: number;
    importAllowPrivateAddresses: boolean;
    importTimeoutSeconds: number;
  };
  analysis: {
    geminiApiKey: string | undefined;
    geminiModel: string;
    geminiBaseUrl: string | undefined;
    scoringWeights: ScoringWeights;
    ffmpegPath: string | undefined;
    ffprobePath: string | undefined;
  };
  worker: { concurrency: number; visibilityTimeoutSeconds: number };
};

/** The fixed credentials the embedded S3 emulator accepts (s3rver's built-in account). */
export const EMBEDDED_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Pure: environment in, config out. Throws ConfigError naming each bad variable. */
export function parseConfig(
  environment: Record<string, string | undefined>,
  options: { readSecretFile?: (dataDir: string) => string } = {},
): Config {
  // Treat empty strings as unset, as a shell `FOO=` usually means "no value".
  const cleaned = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(environment)"}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const problems: string[] = [];
  const embedded = env.TRUSS_SERVICES === "embedded";
  const local = (portNumber: number) => `http://127.0.0.1:${portNumber}`;

  if (!embedded && env.NODE_ENV === "production" && !env.AUTH_SECRET) {
    problems.push("AUTH_SECRET: required when TRUSS_SERVICES=aws in production");
  }
  // Without it mail goes to a file on each server's disk: nobody could sign in, and the emails
  // that say a video is done would go nowhere.
  if (!embedded && env.NODE_ENV === "production" && !env.SMTP_URL) {
    problems.push("SMTP_URL: required when TRUSS_SERVICES=aws in production (sign-in links are emailed)");
  }
  if (env.UPLOAD_PART_SIZE_BYTES > env.UPLOAD_MULTIPART_THRESHOLD_BYTES) {
    problems.push("UPLOAD_PART_SIZE_BYTES: must not exceed UPLOAD_MULTIPART_THRESHOLD_BYTES");
  }
  let scoringWeights = DEFAULT_SCORING_WEIGHTS;
  try {
    if (env.TRUSS_SCORING_WEIGHTS) scoringWeights = parseWeights(env.TRUSS_SCORING_WEIGHTS);
  } catch (error) {
    problems.push(`TRUSS_SCORING_WEIGHTS: ${(error as Error).message}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(env.TRUSS_DATA_DIR);
  const secret = env.AUTH_SECRET ?? (options.readSecretFile ?? readOrCreateSecretFile)(dataDir);
  const s3Endpoint = env.S3_ENDPOINT ?? (embedded ? local(env.TRUSS_S3_PORT) : undefined);

  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    dataDir,
    services: env.TRUSS_SERVICES,
    logLevel: env.TRUSS_LOG_LEVEL,
    aws: {
      region: env.AWS_REGION,
      credentials: embedded ? { ...EMBEDDED_CREDENTIALS } : undefined,
      roleArn: env.AWS_ROLE_ARN,
      dynamodbEndpoint: env.DYNAMODB_ENDPOINT ?? (embedded ? local(env.TRUSS_DYNAMODB_PORT) : undefined),
      s3Endpoint,
      // Browsers sign nothing, but presigned URLs are host-bound: sign with the host the
      // browser will use. Locally that is `localhost`, matching the app origin.
      s3PublicEndpoint:
        env.S3_PUBLIC_ENDPOINT ?? (embedded ? `http://localhost:${env.TRUSS_S3_PORT}` : s3Endpoint),
      sqsEndpoint: env.SQS_ENDPOINT ?? (embedded ? local(env.TRUSS_SQS_PORT) : undefined),
      stsEndpoint: env.STS_ENDPOINT,
      tableName: env.TRUSS_TABLE_NAME,
      bucketName: env.TRUSS_BUCKET_NAME,
      queueName: env.TRUSS_QUEUE_NAME,
      deadLetterQueueName: env.TRUSS_DLQ_NAME,
    },
    embedded: {
      dynamodbPort: env.TRUSS_DYNAMODB_PORT,
      s3Port: env.TRUSS_S3_PORT,
      sqsPort: env.TRUSS_SQS_PORT,
    },
    auth: {
      secret,
      magicLinkTtlMinutes: env.MAGIC_LINK_TTL_MINUTES,
      sessionTtlDays: env.SESSION_TTL_DAYS,
      trustedProxyHops: env.TRUSTED_PROXY_HOPS,
    },
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      outboxPath: path.join(dataDir, "mail", "outbox.jsonl"),
    },
    uploads: {
      multipartThresholdBytes: env.UPLOAD_MULTIPART_THRESHOLD_BYTES,
      partSizeBytes: env.UPLOAD_PART_SIZE_BYTES,
      maxBytes: env.UPLOAD_MAX_BYTES,
      maxDurationSeconds: env.VIDEO_MAX_DURATION_SECONDS,
      abandonAfterHours: env.UPLOAD_ABANDON_AFTER_HOURS,
      importAllowPrivateAddresses: env.IMPORT_ALLOW_PRIVATE_ADDRESSES,
      importTimeoutSeconds: env.IMPORT_TIMEOUT_SECONDS,
    },
    analysis: {
      geminiApiKey: env.GOOGLE_GENERATIVE_AI_API_KEY,
      geminiModel: env.GEMINI_MODEL,
      geminiBaseUrl: env.GEMINI_BASE_URL,
      scoringWeights,
      ffmpegPath: env.FFMPEG_PATH,
      ffprobePath: env.FFPROBE_PATH,
    },
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      visibilityTimeoutSeconds: env.WORKER_VISIBILITY_TIMEOUT_SECONDS,
    },
  };
}

/**
 * With no AUTH_SECRET configured, a random one is created once and kept in the data
 * directory, so sessions and cursors survive restarts without any setup.
 */
function readOrCreateSecretFile(dataDir: string): string {
  const secretPath = path.join(dataDir, "auth-secret");
  if (existsSync(secretPath)) return readFileSync(secretPath, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(secretPath, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process (web app and worker start together) wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(secretPath, "utf8").trim();
    throw error;
  }
}

let cachedConfig: Config | undefined;

/** The process-wide config, parsed on first use and never again. */
export function getConfig(): Config {
  cachedConfig ??= parseConfig(process.env);
  return cachedConfig;
}
