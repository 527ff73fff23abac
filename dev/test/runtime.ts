import { parseConfig } from "@/config";
import { createRuntime, type Runtime, tableOf } from "@/server/runtime";

/**
 * A runtime pointed at the services dev/test/global-setup.ts started. `overrides` set config
 * environment variables for one test (e.g. a short magic-link lifetime).
 */
export function testRuntime(overrides: Record<string, string> = {}): Runtime {
  return createRuntime(parseConfig({ ...process.env, ...overrides }));
}

export function testTable(runtime: Runtime = testRuntime()) {
  return tableOf(runtime);
}

/**
 * A table of a test file's own (created by provisionResources), for files whose sweeps act on
 * every stalled item in the table, or whose items a sweep must not touch mid-test: another
 * file's sweep would otherwise re-queue them in between two of its steps.
 */
export function testTableName(label: string): string {
  return `truss-test-${label}-${process.pid}`;
}
