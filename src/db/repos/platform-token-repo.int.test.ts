import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import type { AppError } from "@/server/errors";
import { testTable } from "../../../dev/test/runtime";
import { platformTokenKey } from "../keys";
import type { QueryStats } from "../table";
import {
  deletePlatformToken,
  findCreatorByPlatformAccount,
  findPlatformToken,
  listPlatformConnections,
  savePlatformToken,
} from "./platform-token-repo";

const table = testTable();
const sealingSecret = "platform-token-secret-0123456789abcdef";

function tokenFor(creatorId: string, externalAccountId: string) {
  return {
    creatorId,
    platform: "youtube" as const,
    externalAccountId,
    accountName: "My Channel",
    accessToken: "ya29.secret-access",
    refreshToken: "1//0g-secret-refresh",
    accessTokenExpiresAt: "2026-11-29T22:00:00.000Z",
    refreshTokenExpiresAt: null,
    scopes: ["https://www.googleapis.com/auth/youtube.upload"],
  };
}

describe("platform token repository", () => {
  it("stores tokens sealed, reads them back, and finds the creator by platform account", async () => {
    const creatorId = createId("creator");
    const accountId = `UC${createId("job")}`;
    await savePlatformToken({ table, sealingSecret, token: tokenFor(creatorId, accountId) });
    const raw = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: platformTokenKey(creatorId, "youtube") }),
    );
    expect(JSON.stringify(raw.Item)).not.toContain("secret-access");
    expect(
      (await findPlatformToken({ table, sealingSecret, creatorId, platform: "youtube" }))?.accessToken,
    ).toBe("ya29.secret-access");
    expect(
      await findCreatorByPlatformAccount({ table, platform: "youtube", externalAccountId: accountId }),
    ).toBe(creatorId);

    const stats: QueryStats[] = [];
    const connections = await listPlatformConnections({ table, creatorId, onStats: (s) => stats.push(s) });
    expect(connections).toHaveLength(1);
    expect(JSON.stringify(connections)).not.toContain("secret");
    expect(stats[0]).toMatchObject({ count: 1, scannedCount: 1 });
  });

  it("refuses to connect an account another creator already connected", async () => {
    const accountId = `UC${createId("job")}`;
    await savePlatformToken({ table, sealingSecret, token: tokenFor(createId("creator"), accountId) });
    const intruder = createId("creator");
    const error = await savePlatformToken({
      table,
      sealingSecret,
      token: tokenFor(intruder, accountId),
    }).catch((caught) => caught);
    expect((error as AppError).code).toBe("conflict");
    expect(
      await findPlatformToken({ table, sealingSecret, creatorId: intruder, platform: "youtube" }),
    ).toBeUndefined();
  });

  it("re-connecting bumps the version; disconnecting removes token and lookup together", async () => {
    const creatorId = createId("creator");
    const accountId = `UC${createId("job")}`;
    await savePlatformToken({ table, sealingSecret, token: tokenFor(creatorId, accountId) });
    await savePlatformToken({
      table,
      sealingSecret,
      token: { ...tokenFor(creatorId, accountId), accessToken: "ya29.new" },
    });
    const saved = await findPlatformToken({ table, sealingSecret, creatorId, platform: "youtube" });
    expect(saved).toMatchObject({ version: 2, accessToken: "ya29.new" });
    await deletePlatformToken({ table, sealingSecret, creatorId, platform: "youtube" });
    await deletePlatformToken({ table, sealingSecret, creatorId, platform: "youtube" });
    expect(await findPlatformToken({ table, sealingSecret, creatorId, platform: "youtube" })).toBeUndefined();
    expect(
      await findCreatorByPlatformAccount({ table, platform: "youtube", externalAccountId: accountId }),
    ).toBeUndefined();
  });
});
