import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "@/config";
import { buildWorker } from "../build-worker";
import { findFreePort, startEmbeddedServices } from "../services";

/**
 * Starts the real local services once for the integration suite (in memory, on free ports)
 * and publishes their coordinates through the environment, which test workers inherit.
 * Tests build their runtime with `testRuntime()` from dev/test/runtime.ts.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // A temporary directory of this run's own, for every test process it starts: tests that check
  // a job left nothing behind list it, and another run on the same machine (a second checkout,
  // an editor's) must not show up there.
  const runTemporaryDirectory = mkdtempSync(path.join(os.tmpdir(), "truss-test-run-"));
  process.env.TMPDIR = runTemporaryDirectory;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "truss-int-"));
  const environment = {
    NODE_ENV: "test",
    TRUSS_DATA_DIR: dataDir,
    TRUSS_DYNAMODB_PORT: String(await findFreePort()),
    TRUSS_S3_PORT: String(await findFreePort()),
    TRUSS_SQS_PORT: String(await findFreePort()),
    AUTH_SECRET: "integration-tests-secret-0123456789abcdef",
  };
  Object.assign(process.env, environment);
  const [services] = await Promise.all([
    startEmbeddedServices({ config: parseConfig(process.env), inMemory: true }),
    // Tests that start a real worker process start it as `npm start` does, from the bundle.
    buildWorker(),
  ]);
  return async () => {
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(runTemporaryDirectory, { recursive: true, force: true });
  };
}
