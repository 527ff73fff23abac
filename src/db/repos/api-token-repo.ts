import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { API_TOKEN_SK_PREFIX, apiTokenKey, apiTokenLookupKey, creatorPk } from "@/db/keys";
import {
  getItem,
  isConditionFailure,
  itemOf,
  parseStoredItem,
  queryAllItems,
  type Table,
  transactWrite,
  translateWriteError,
} from "@/db/table";
import { AppError } from "@/server/errors";

/**
 * Personal API tokens. The creator's partition holds one item per token (name, dates, the
 * hash) for listing in Settings; a lookup item keyed by the token's SHA-256
 * (`APITOKEN#<hash>` / `APITOKEN`) makes authenticating a request a single GetItem.
 * The token itself is never stored.
 */

const ApiTokenItem = z.object({
  type: z.literal("ApiToken"),
  tokenId: z.string(),
  name: z.string(),
  tokenHash: z.string(),
  /** The first characters of the token, so a creator can tell tokens apart. */
  displayPrefix: z.string(),
  createdAt: z.string(),
});

const ApiTokenLookupItem = z.object({
  type: z.literal("ApiTokenLookup"),
  creatorId: z.string(),
  tokenId: z.string(),
  createdAt: z.string(),
});

export type ApiToken = {
  tokenId: string;
  name: string;
  displayPrefix: string;
  createdAt: string;
};

export const MAX_API_TOKENS_PER_CREATOR = 50;

function toApiToken(item: z.infer<typeof ApiTokenItem>): ApiToken {
  return {
    tokenId: item.tokenId,
    name: item.name,
    displayPrefix: item.displayPrefix,
    createdAt: item.createdAt,
  };
}

// Store a token's listing item and its lookup item together (one transaction).
export async function createApiToken(options: {
  table: Table;
  creatorId: string;
  tokenId: string;
  name: string;
  tokenHash: string;
  displayPrefix: string;
  now?: Date;
}): Promise<ApiToken> {
  const { table, creatorId, tokenId, tokenHash } = options;
  const createdAt = (options.now ?? new Date()).toISOString();
  const token: ApiToken = { tokenId, name: options.name, displayPrefix: options.displayPrefix, createdAt };
  await transactWrite({
    table,
    conflictMessage: "This token already exists.",
    items: [
      {
        Put: {
          TableName: table.tableName,
          Item: itemOf(apiTokenKey(creatorId, tokenId), "ApiToken", { ...token, tokenHash }),
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
      {
        Put: {
          TableName: table.tableName,
          Item: itemOf(apiTokenLookupKey(tokenHash), "ApiTokenLookup", { creatorId, tokenId, createdAt }),
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
    ],
  });
  return token;
}

// Token hash → owning creator and token id (one GetItem). Absent once revoked: strongly
// consistent, as an eventually consistent read can still find a revoked token for about a second.
export async function findApiTokenOwnerByHash(options: {
  table: Table;
  tokenHash: string;
}): Promise<{ creatorId: string; tokenId: string } | undefined> {
  const item = await getItem({
    table: options.table,
    key: apiTokenLookupKey(options.tokenHash),
    schema: ApiTokenLookupItem,
    consistent: true,
  });
  return item ? { creatorId: item.creatorId, tokenId: item.tokenId } : undefined;
}

/**
 * All of a creator's tokens, newest first (token ids sort by time). Every one, page after page:
 * the cap is checked before a write, not with it, so creates racing each other can pass it,
 * and a token left off this list could never be seen or revoked in Settings.
 */
export async function listApiTokensByCreator(options: {
  table: Table;
  creatorId: string;
}): Promise<ApiToken[]> {
  const items = await queryAllItems({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: API_TOKEN_SK_PREFIX },
    schema: ApiTokenItem,
  });
  return items.map(toApiToken).reverse();
}

// Rename one of the creator's tokens; `not_found` when it is not theirs or does not exist.
export async function renameApiToken(options: {
  table: Table;
  creatorId: string;
  tokenId: string;
  name: string;
}): Promise<ApiToken> {
  const { table } = options;
  try {
    const output = await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: apiTokenKey(options.creatorId, options.tokenId),
        UpdateExpression: "SET #name = :name",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#name": "name" },
        ExpressionAttributeValues: { ":name": options.name },
        ReturnValues: "ALL_NEW",
      }),
    );
    return toApiToken(parseStoredItem(ApiTokenItem, output.Attributes));
  } catch (error) {
    const translated = translateWriteError(error, "No such token.");
    if (isConditionFailure(translated)) throw new AppError("not_found", "No such token.", { cause: error });
    throw translated;
  }
}

// Revoke one of the creator's tokens: both items go in one transaction. `not_found` if absent.
export async function deleteApiToken(options: {
  table: Table;
  creatorId: string;
  tokenId: string;
}): Promise<void> {
  const { table, creatorId, tokenId } = options;
  // The key is scoped to the caller's partition, so another creator's token id finds nothing.
  const item = await getItem({
    table,
    key: apiTokenKey(creatorId, tokenId),
    schema: ApiTokenItem,
    consistent: true,
  });
  if (!item) throw new AppError("not_found", "No such token.");
  try {
    await transactWrite({
      table,
      conflictMessage: "No such token.",
      items: [
        {
          Delete: {
            TableName: table.tableName,
            Key: apiTokenKey(creatorId, tokenId),
            ConditionExpression: "attribute_exists(PK)",
          },
        },
        { Delete: { TableName: table.tableName, Key: apiTokenLookupKey(item.tokenHash) } },
      ],
    });
  } catch (error) {
    if (isConditionFailure(error)) throw new AppError("not_found", "No such token.", { cause: error });
    throw error;
  }
}
