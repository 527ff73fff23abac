import { randomBytes } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { magicLinkKey } from "@/db/keys";
import { testTable } from "../../../dev/test/runtime";
import { consumeMagicLink, createMagicLink } from "./magic-link-repo";

const table = testTable();
const newHash = () => randomBytes(32).toString("hex");
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe("magic-link repository", () => {
  it("stores the hash with a TTL and type, and nothing else secret", async () => {
    const tokenHash = newHash();
    await createMagicLink({ table, tokenHash, identifier: "a@example.test", expires: inMinutes(15) });
    const output = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: magicLinkKey(tokenHash) }),
    );
    expect(output.Item).toMatchObject({ type: "MagicLink", identifier: "a@example.test" });
    expect(output.Item?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 14 * 60);
    expect(Object.keys(output.Item ?? {}).sort()).toEqual([
      "PK",
      "SK",
      "createdAt",
      "expiresAt",
      "identifier",
      "type",
    ]);
  });

  it("works exactly once, even when two requests race", async () => {
    const tokenHash = newHash();
    await createMagicLink({ table, tokenHash, identifier: "b@example.test", expires: inMinutes(15) });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => consumeMagicLink({ table, tokenHash })),
    );
    expect(results.filter((result) => result.status === "used")).toHaveLength(1);
    expect(results.filter((result) => result.status === "missing")).toHaveLength(5);
    expect((await consumeMagicLink({ table, tokenHash })).status).toBe("missing");
  });

  it("reports an expired link as expired (TTL has not removed it yet) and removes it", async () => {
    const tokenHash = newHash();
    await createMagicLink({ table, tokenHash, identifier: "c@example.test", expires: inMinutes(15) });
    const later = Date.now() + 16 * 60_000;
    expect((await consumeMagicLink({ table, tokenHash, nowMs: later })).status).toBe("expired");
    expect((await consumeMagicLink({ table, tokenHash })).status).toBe("missing");
  });
});
