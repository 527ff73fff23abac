import { randomUUID } from "node:crypto";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { creatorKey, emailLookupKey } from "@/db/keys";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { testTable } from "../../../dev/test/runtime";
import { createCreator, findCreatorById, findCreatorIdByEmail, updateCreator } from "./creator-repo";

const table = testTable();
const uniqueEmail = () => `repo-${randomUUID()}@example.test`;

async function rawItem(key: { PK: string; SK: string }) {
  const output = await table.documentClient.send(new GetCommand({ TableName: table.tableName, Key: key }));
  return output.Item;
}

describe("creator repository", () => {
  it("writes the profile and the email lookup together, both typed", async () => {
    const email = uniqueEmail();
    const creatorId = createId("creator");
    const created = await createCreator({ table, creatorId, email });
    expect(created).toMatchObject({ creatorId, email, displayName: null, timezone: "UTC", version: 1 });

    expect(await rawItem(creatorKey(creatorId))).toMatchObject({ type: "Creator", email });
    expect(await rawItem(emailLookupKey(email))).toMatchObject({ type: "EmailLookup", creatorId });
    expect(await findCreatorIdByEmail({ table, normalizedEmail: email })).toBe(creatorId);
    expect(await findCreatorById({ table, creatorId })).toEqual(created);
  });

  it("refuses a second creator for the same email and writes nothing for it", async () => {
    const email = uniqueEmail();
    const first = createId("creator");
    await createCreator({ table, creatorId: first, email });
    const second = createId("creator");
    const error = await createCreator({ table, creatorId: second, email }).catch((caught) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("conflict");
    // The transaction failed as a whole: no orphan profile for the loser.
    expect(await rawItem(creatorKey(second))).toBeUndefined();
    expect(await findCreatorIdByEmail({ table, normalizedEmail: email })).toBe(first);
  });

  it("updates with a version check, so a stale edit is a conflict", async () => {
    const creatorId = createId("creator");
    await createCreator({ table, creatorId, email: uniqueEmail() });
    const updated = await updateCreator({
      table,
      creatorId,
      changes: { displayName: "Ada", timezone: "Europe/London" },
      expectedVersion: 1,
    });
    expect(updated).toMatchObject({ displayName: "Ada", timezone: "Europe/London", version: 2 });

    const stale = await updateCreator({
      table,
      creatorId,
      changes: { displayName: "Overwritten" },
      expectedVersion: 1,
    }).catch((caught) => caught);
    expect((stale as AppError).code).toBe("conflict");
    expect((await findCreatorById({ table, creatorId }))?.displayName).toBe("Ada");
  });

  it("does not create a creator by updating one that does not exist", async () => {
    const creatorId = createId("creator");
    const error = await updateCreator({ table, creatorId, changes: { displayName: "Ghost" } }).catch(
      (e) => e,
    );
    expect((error as AppError).code).toBe("not_found");
    expect(await rawItem(creatorKey(creatorId))).toBeUndefined();
  });

  it("emails when clips are ready unless the creator turned it off; older profiles have it on", async () => {
    const creatorId = createId("creator");
    const created = await createCreator({ table, creatorId, email: uniqueEmail() });
    expect(created.emailWhenClipsReady).toBe(true);
    const off = await updateCreator({ table, creatorId, changes: { emailWhenClipsReady: false } });
    expect(off).toMatchObject({ emailWhenClipsReady: false, version: 2 });
    expect((await findCreatorById({ table, creatorId }))?.emailWhenClipsReady).toBe(false);

    // A profile stored before the setting existed has no attribute at all.
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: creatorKey(creatorId),
        UpdateExpression: "REMOVE emailWhenClipsReady",
      }),
    );
    expect((await findCreatorById({ table, creatorId }))?.emailWhenClipsReady).toBe(true);
  });
});
