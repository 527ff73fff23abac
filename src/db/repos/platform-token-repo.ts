import { z } from "zod";
import { seal, unseal } from "@/lib/seal";
import { creatorPk, LIST_PREFIXES, platformAccountKey, platformTokenKey } from "../keys";
import { getItem, itemOf, type QueryStats, queryPage, type Table, transactWrite } from "../table";

/**
 * A creator's connection to a publishing platform: OAuth tokens (sealed with AES-GCM, never
 * stored in the clear), scopes granted, expiry, and whether it needs re-connecting
 * (`invalid_grant` on refresh). One per platform per creator.
 */
export const PLATFORMS = ["youtube", "tiktok", "twitch", "discord"] as const;
export type Platform = (typeof PLATFORMS)[number];

const StoredPlatformToken = z.object({
  creatorId: z.string(),
  platform: z.enum(PLATFORMS),
  externalAccountId: z.string(),
  accountName: z.string(),
  sealedAccessToken: z.string(),
  sealedRefreshToken: z.string().nullable(),
  accessTokenExpiresAt: z.string().nullable(),
  refreshTokenExpiresAt: z.string().nullable(),
  scopes: z.array(z.string()),
  status: z.enum(["CONNECTED", "NEEDS_RECONNECT"]),
  version: z.number().int(),
  connectedAt: z.string(),
  updatedAt: z.string(),
});

export type PlatformToken = Omit<
  z.infer<typeof StoredPlatformToken>,
  "sealedAccessToken" | "sealedRefreshToken"
> & {
  accessToken: string;
  refreshToken: string | null;
};

/** What list pages show: never the tokens themselves. */
export type PlatformConnection = Omit<PlatformToken, "accessToken" | "refreshToken">;

/**
 * Saves (or replaces) the connection, and the account → creator lookup, in one transaction.
 * Connecting an account another creator already connected is refused.
 */
export async function savePlatformToken({
  table,
  sealingSecret,
  token,
}: {
  table: Table;
  sealingSecret: string;
  token: Omit<PlatformToken, "version" | "updatedAt" | "connectedAt" | "status">;
}): Promise<void> {
  const now = new Date().toISOString();
  const existing = await findPlatformToken({
    table,
    sealingSecret,
    creatorId: token.creatorId,
    platform: token.platform,
  });
  const { accessToken, refreshToken, ...rest } = token;
  const stored: z.infer<typeof StoredPlatformToken> = {
    ...rest,
    sealedAccessToken: seal(sealingSecret, accessToken),
    sealedRefreshToken: refreshToken === null ? null : seal(sealingSecret, refreshToken),
    status: "CONNECTED",
    version: (existing?.version ?? 0) + 1,
    connectedAt: existing?.connectedAt ?? now,
    updatedAt: now,
  };
  const lookup = platformAccountKey(token.platform, token.externalAccountId);
  await transactWrite({
    table,
    conflictMessage:
      "This platform account is connected to another Truss account, or the connection changed meanwhile.",
    items: [
      {
        Put: {
          TableName: table.tableName,
          Item: itemOf(platformTokenKey(token.creatorId, token.platform), "PlatformToken", stored),
          // Optimistic concurrency: a refresh racing a re-connect must not overwrite it.
          ConditionExpression: existing ? "version = :expectedVersion" : "attribute_not_exists(PK)",
          ExpressionAttributeValues: existing ? { ":expectedVersion": existing.version } : undefined,
        },
      },
      {
        Put: {
          TableName: table.tableName,
          Item: itemOf(lookup, "PlatformAccountLookup", {
            creatorId: token.creatorId,
            platform: token.platform,
          }),
          ConditionExpression: "attribute_not_exists(PK) OR creatorId = :creatorId",
          ExpressionAttributeValues: { ":creatorId": token.creatorId },
        },
      },
      ...(existing && existing.externalAccountId !== token.externalAccountId
        ? [
            {
              Delete: {
                TableName: table.tableName,
                Key: platformAccountKey(existing.platform, existing.externalAccountId),
              },
            },
          ]
        : []),
    ],
  });
}

/** The creator's connection to one platform, with tokens unsealed, or undefined. */
export async function findPlatformToken({
  table,
  sealingSecret,
  creatorId,
  platform,
}: {
  table: Table;
  sealingSecret: string;
  creatorId: string;
  platform: Platform;
}): Promise<PlatformToken | undefined> {
  const stored = await getItem({
    table,
    key: platformTokenKey(creatorId, platform),
    schema: StoredPlatformToken,
  });
  if (!stored) return undefined;
  const { sealedAccessToken, sealedRefreshToken, ...rest } = stored;
  return {
    ...rest,
    accessToken: unseal(sealingSecret, sealedAccessToken),
    refreshToken: sealedRefreshToken === null ? null : unseal(sealingSecret, sealedRefreshToken),
  };
}

/** Which creator connected this platform account (webhooks, chat events). */
export async function findCreatorByPlatformAccount({
  table,
  platform,
  externalAccountId,
}: {
  table: Table;
  platform: Platform;
  externalAccountId: string;
}): Promise<string | undefined> {
  const lookup = await getItem({
    table,
    key: platformAccountKey(platform, externalAccountId),
    schema: z.object({ creatorId: z.string() }),
  });
  return lookup?.creatorId;
}

/** A creator's connected platforms (at most four items: the whole list in one Query). */
export async function listPlatformConnections({
  table,
  creatorId,
  onStats,
}: {
  table: Table;
  creatorId: string;
  onStats?: (stats: QueryStats) => void;
}): Promise<PlatformConnection[]> {
  const page = await queryPage({
    table,
    pk: creatorPk(creatorId),
    range: { kind: "prefix", prefix: LIST_PREFIXES.platformTokens },
    list: "platformTokens",
    limit: PLATFORMS.length,
    schema: StoredPlatformToken,
    onStats,
  });
  return page.items.map(
    ({ sealedAccessToken: _access, sealedRefreshToken: _refresh, ...connection }) => connection,
  );
}

/** Disconnects a platform: the token and its lookup go together. Repeatable. */
export async function deletePlatformToken({
  table,
  creatorId,
  platform,
  sealingSecret,
}: {
  table: Table;
  creatorId: string;
  platform: Platform;
  sealingSecret: string;
}): Promise<void> {
  const existing = await findPlatformToken({ table, sealingSecret, creatorId, platform });
  if (!existing) return;
  await transactWrite({
    table,
    conflictMessage: "The connection changed meanwhile; try again.",
    items: [
      { Delete: { TableName: table.tableName, Key: platformTokenKey(creatorId, platform) } },
      {
        Delete: { TableName: table.tableName, Key: platformAccountKey(platform, existing.externalAccountId) },
      },
    ],
  });
}
