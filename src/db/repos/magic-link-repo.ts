import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { magicLinkKey } from "@/db/keys";
import { itemOf, parseStoredItem, putNew, type Table } from "@/db/table";
import { toEpochSeconds } from "./session-repo";

/**
 * Magic-link tokens (`MAGIC#<tokenHash>` / `VERIFY`). Only a hash of the emailed token is
 * stored (Auth.js hands the adapter SHA-256(token + secret)), with `expiresAt` (seconds, the
 * table's TTL attribute). Using a link deletes its item in the same call that reads it, so a
 * link works once even when two requests race.
 */

const MagicLinkItem = z.object({
  type: z.literal("MagicLink"),
  identifier: z.string(),
  expiresAt: z.number().int(),
  createdAt: z.string(),
});

export type MagicLink = { tokenHash: string; identifier: string; expiresAt: number };

// Store a new magic-link token hash for an email.
export async function createMagicLink(options: {
  table: Table;
  tokenHash: string;
  identifier: string;
  expires: Date;
  now?: Date;
}): Promise<MagicLink> {
  const expiresAt = toEpochSeconds(options.expires);
  await putNew({
    table: options.table,
    item: itemOf(magicLinkKey(options.tokenHash), "MagicLink", {
      identifier: options.identifier,
      expiresAt,
      createdAt: (options.now ?? new Date()).toISOString(),
    }),
    conflictMessage: "This sign-in link already exists.",
  });
  return { tokenHash: options.tokenHash, identifier: options.identifier, expiresAt };
}

export type ConsumeResult =
  | { status: "used"; link: MagicLink }
  | { status: "expired"; link: MagicLink }
  | { status: "missing" };

// Read-and-delete in one call: the first caller gets the link, every later caller "missing".
export async function consumeMagicLink(options: {
  table: Table;
  tokenHash: string;
  nowMs?: number;
}): Promise<ConsumeResult> {
  const { table, tokenHash } = options;
  let attributes: Record<string, unknown> | undefined;
  try {
    const output = await table.documentClient.send(
      new DeleteCommand({
        TableName: table.tableName,
        Key: magicLinkKey(tokenHash),
        // The condition makes read-and-delete one atomic step: of two racing requests, one
        // deletes the item and the other fails the condition.
        ConditionExpression: "attribute_exists(PK)",
        ReturnValues: "ALL_OLD",
      }),
    );
    attributes = output.Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { status: "missing" };
    throw error;
  }
  if (!attributes) return { status: "missing" };
  const item = parseStoredItem(MagicLinkItem, attributes);
  const link = { tokenHash, identifier: item.identifier, expiresAt: item.expiresAt };
  // TTL deletes late (up to days): an expired item may still be there, and must not work.
  if (item.expiresAt * 1000 <= (options.nowMs ?? Date.now())) return { status: "expired", link };
  return { status: "used", link };
}
