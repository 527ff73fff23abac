import { createHmac } from "node:crypto";
import { type AwsClients, createAwsClients } from "@/aws/clients";
import { type Config, getConfig } from "@/config";
import type { Table } from "@/db/table";

/**
 * The process-wide runtime: config parsed once, AWS clients built once. Server functions take
 * a `Runtime` argument so tests can hand them one pointed at the test services.
 */
export type Runtime = { config: Config; clients: AwsClients };

let runtime: Runtime | undefined;

export function getRuntime(): Runtime {
  if (!runtime) {
    const config = getConfig();
    runtime = { config, clients: createAwsClients(config.aws) };
  }
  return runtime;
}

export function createRuntime(config: Config): Runtime {
  return { config, clients: createAwsClients(config.aws) };
}

/** The table handle repositories take: client, name, and the key that signs cursors. */
export function tableOf({ config, clients }: Runtime): Table {
  return {
    documentClient: clients.documentClient,
    tableName: config.aws.tableName,
    cursorSecret: deriveSecret(config.auth.secret, "pagination-cursor"),
  };
}

/** Separate keys per purpose, all derived from the one configured secret. */
export function deriveSecret(secret: string, purpose: string): string {
  return createHmac("sha256", secret).update(`truss:${purpose}`).digest("base64url");
}
