import { describe, expect, it } from "vitest";
import { testRuntime } from "../../../dev/test/runtime";
import { checkHealth } from "./check-health";

describe("checkHealth", () => {
  it("is ok when the table, bucket and queue answer", async () => {
    const health = await checkHealth(testRuntime());
    expect(health).toEqual({
      status: "ok",
      services: { table: "ok", bucket: "ok", queue: "ok" },
      problems: {},
    });
  });

  it("names the service that does not answer", async () => {
    const health = await checkHealth(
      testRuntime({ TRUSS_BUCKET_NAME: "no-such-bucket", TRUSS_QUEUE_NAME: "no-such-queue" }),
    );
    expect(health.status).toBe("degraded");
    expect(health.services).toEqual({ table: "ok", bucket: "unavailable", queue: "unavailable" });
    expect(Object.keys(health.problems).sort()).toEqual(["bucket", "queue"]);
  });

  it("reports a table that does not exist", async () => {
    const health = await checkHealth(testRuntime({ TRUSS_TABLE_NAME: "no-such-table" }));
    expect(health.services.table).toBe("unavailable");
  });
});
