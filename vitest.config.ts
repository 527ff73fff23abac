import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname, "src"),
  "server-only": path.resolve(import.meta.dirname, "dev/test/server-only-stub.ts"),
};

// Three suites, one command: unit tests beside the code, integration tests against the real
// local services (started once by dev/test/global-setup.ts), and browser tests in e2e/.
export default defineConfig({
  test: {
    reporters: ["default", "./dev/test/summary-reporter.ts"],
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "dev/**/*.test.ts", "bin/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "int",
          include: ["src/**/*.int.test.ts", "dev/**/*.int.test.ts", "bin/**/*.int.test.ts"],
          globalSetup: ["./dev/test/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Renders and analysis take both cores; more files at once only slows each down.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.test.ts"],
          globalSetup: ["./e2e/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
