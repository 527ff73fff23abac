import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../dev/ensure-build";
import { findFreePort } from "../dev/services";
import { startStack } from "../dev/start";
import "./support/provided-context";

/**
 * Browser tests run against the real thing: a production build (rebuilt when sources are
 * newer), the embedded services in memory, `next start` and the worker, on free ports with a
 * temporary data directory. Links in emails use http://localhost:<port>, as the browser does.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const projectRoot = path.resolve(import.meta.dirname, "..");
  const logs: string[] = [];
  const log = (line: string) => {
    logs.push(line);
    if (logs.length > 400) logs.shift();
  };
  await ensureBuild({ projectRoot, log: (line) => console.log(`[e2e] ${line}`) });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-"));
  const port = await findFreePort();
  const appUrl = `http://localhost:${port}`;
  const environment = {
    ...process.env,
    TRUSS_DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: appUrl,
    TRUSS_DYNAMODB_PORT: String(await findFreePort()),
    TRUSS_S3_PORT: String(await findFreePort()),
    TRUSS_SQS_PORT: String(await findFreePort()),
    AUTH_SECRET: "e2e-tests-secret-0123456789abcdef0123",
    TRUSS_SERVICES: "embedded",
    SMTP_URL: "",
  };
  let stack: Awaited<ReturnType<typeof startStack>>;
  try {
    stack = await startStack({ environment, inMemory: true, log });
  } catch (error) {
    console.error(`[e2e] the stack did not start. Last output:\n${logs.slice(-60).join("\n")}`);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide("e2eAppUrl", appUrl);
  project.provide("e2eOutboxPath", stack.config.mail.outboxPath);

  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
