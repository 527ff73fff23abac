import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { creatorKey, emailLookupKey } from "@/db/keys";
import {
  assertItemSize,
  getItem,
  itemOf,
  parseStoredItem,
  type Table,
  transactWrite,
  translateWriteError,
} from "@/db/table";
import { AppError } from "@/server/errors";

/**
 * Creator profiles (`CREATOR#<id>` / `METADATA`) and the email → creator lookup item
 * (`EMAIL#<normalized>` / `CREATOR`) that stands in for a GSI. Both are written in one
 * transaction, so an email never points at a missing creator and never at two creators.
 */

export const CreatorItem = z.object({
  type: z.literal("Creator"),
  creatorId: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  timezone: z.string(),
  /**
   * Whether Truss emails the creator when a video's clips are ready (or it could not make
   * them). On by default; profiles from before the setting have none, and so have it on.
   */
  emailWhenClipsReady: z.boolean().default(true),
  /** ISO time of the last completed magic-link sign-in; null before the first. */
  emailVerifiedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Incremented by every update; edits may require the version they were based on. */
  version: z.number().int().nonnegative(),
});

export type Creator = Omit<z.infer<typeof CreatorItem>, "type">;

const EmailLookupItem = z.object({
  type: z.literal("EmailLookup"),
  email: z.string(),
  creatorId: z.string(),
  createdAt: z.string(),
});

export const DEFAULT_TIMEZONE = "UTC";

function toCreator(item: z.infer<typeof CreatorItem>): Creator {
  const { type: _type, ...creator } = item;
  return creator;
}

// Create a creator and its email lookup together; fails with `conflict` if either exists.
export async function createCreator(options: {
  table: Table;
  creatorId: string;
  email: string;
  displayName?: string | null;
  timezone?: string;
  emailWhenClipsReady?: boolean;
  emailVerifiedAt?: Date | null;
  now?: Date;
}): Promise<Creator> {
  const { table } = options;
  const nowIso = (options.now ?? new Date()).toISOString();
  const creator: Creator = {
    creatorId: options.creatorId,
    email: options.email,
    displayName: options.displayName ?? null,
    timezone: options.timezone ?? DEFAULT_TIMEZONE,
    emailWhenClipsReady: options.emailWhenClipsReady ?? true,
    emailVerifiedAt: options.emailVerifiedAt ? options.emailVerifiedAt.toISOString() : null,
    createdAt: nowIso,
    updatedAt: nowIso,
    version: 1,
  };
  const creatorItem = itemOf(creatorKey(creator.creatorId), "Creator", creator);
  assertItemSize(creatorItem, "creator profile");
  const lookupItem = itemOf(emailLookupKey(creator.email), "EmailLookup", {
    email: creator.email,
    creatorId: creator.creatorId,
    createdAt: nowIso,
  });
  await transactWrite({
    table,
    conflictMessage: "An account with this email already exists.",
    items: [
      {
        Put: {
          TableName: table.tableName,
          Item: creatorItem,
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
      {
        Put: {
          TableName: table.tableName,
          Item: lookupItem,
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
    ],
  });
  return creator;
}

// One creator's profile by id (GetItem).
export async function findCreatorById(options: {
  table: Table;
  creatorId: string;
}): Promise<Creator | undefined> {
  const item = await getItem({
    table: options.table,
    key: creatorKey(options.creatorId),
    schema: CreatorItem,
  });
  return item ? toCreator(item) : undefined;
}

// Email → creator id through the lookup item (GetItem, strongly consistent: used right after sign-up).
export async function findCreatorIdByEmail(options: {
  table: Table;
  normalizedEmail: string;
}): Promise<string | undefined> {
  const output = await options.table.documentClient.send(
    new GetCommand({
      TableName: options.table.tableName,
      Key: emailLookupKey(options.normalizedEmail),
      ConsistentRead: true,
    }),
  );
  return output.Item ? parseStoredItem(EmailLookupItem, output.Item).creatorId : undefined;
}

export type CreatorChanges = {
  displayName?: string | null;
  timezone?: string;
  emailWhenClipsReady?: boolean;
  emailVerifiedAt?: Date | null;
};

// Update profile fields; with `expectedVersion`, only if nobody else edited it since.
export async function updateCreator(options: {
  table: Table;
  creatorId: string;
  changes: CreatorChanges;
  expectedVersion?: number;
  now?: Date;
}): Promise<Creator> {
  const { table, changes } = options;
  const names: Record<string, string> = { "#version": "version", "#updatedAt": "updatedAt" };
  const values: Record<string, unknown> = {
    ":one": 1,
    ":updatedAt": (options.now ?? new Date()).toISOString(),
  };
  const sets = ["#updatedAt = :updatedAt", "#version = #version + :one"];
  const assign = (attribute: string, value: unknown) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    sets.push(`#${attribute} = :${attribute}`);
  };
  if (changes.displayName !== undefined) assign("displayName", changes.displayName);
  if (changes.timezone !== undefined) assign("timezone", changes.timezone);
  if (changes.emailWhenClipsReady !== undefined) assign("emailWhenClipsReady", changes.emailWhenClipsReady);
  if (changes.emailVerifiedAt !== undefined)
    assign("emailVerifiedAt", changes.emailVerifiedAt ? changes.emailVerifiedAt.toISOString() : null);

  let condition = "attribute_exists(PK)";
  if (options.expectedVersion !== undefined) {
    condition += " AND #version = :expectedVersion";
    values[":expectedVersion"] = options.expectedVersion;
  }
  try {
    const output = await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: creatorKey(options.creatorId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_NEW",
      }),
    );
    return toCreator(parseStoredItem(CreatorItem, output.Attributes));
  } catch (error) {
    const translated = translateWriteError(
      error,
      "Your profile was changed elsewhere. Reload the page and try again.",
    );
    if (
      translated instanceof AppError &&
      translated.code === "conflict" &&
      options.expectedVersion === undefined
    ) {
      throw new AppError("not_found", "No such creator.", { cause: error });
    }
    throw translated;
  }
}
