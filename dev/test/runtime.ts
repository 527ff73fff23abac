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
