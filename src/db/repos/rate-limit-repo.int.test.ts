import { randomUUID } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { rateLimitKey } from "@/db/keys";
import { testTable } from "../../../dev/test/runtime";
import { incrementRateLimitWindow } from "./rate-limit-repo";

const table = testTable();
const windowMs = 60_000;

describe("rate-limit repository", () => {
  it("counts hits atomically within a window and sets the TTL to the window's end", async () => {
    const subject = randomUUID();
    const nowMs = 1_700_000_070_000;
    const hits = await Promise.all(
      Array.from({ length: 5 }, () =>
        incrementRateLimitWindow({ table, scope: "test", subject, windowMs, nowMs }),
      ),
    );
    expect(hits.map((hit) => hit.count).sort()).toEqual([1, 2, 3, 4, 5]);
    const { windowStartMs, windowEndMs } = hits[0]!;
    expect(windowStartMs).toBe(1_700_000_040_000);
    expect(windowEndMs).toBe(windowStartMs + windowMs);
    const output = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: rateLimitKey("test", subject, windowStartMs) }),
    );
    expect(output.Item).toMatchObject({ type: "RateLimitWindow", count: 5, expiresAt: windowEndMs / 1000 });
  });

  it("starts from zero in the next window, whatever TTL has or has not deleted", async () => {
    const subject = randomUUID();
    const nowMs = 1_700_000_070_000;
    await incrementRateLimitWindow({ table, scope: "test", subject, windowMs, nowMs });
    await incrementRateLimitWindow({ table, scope: "test", subject, windowMs, nowMs });
    const next = await incrementRateLimitWindow({
      table,
      scope: "test",
      subject,
      windowMs,
      nowMs: nowMs + windowMs,
    });
    expect(next.count).toBe(1);
    const otherScope = await incrementRateLimitWindow({ table, scope: "other", subject, windowMs, nowMs });
    expect(otherScope.count).toBe(1);
  });
});
