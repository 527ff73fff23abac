import { describe, expect, it } from "vitest";
import { findCreatorById } from "@/db/repos/creator-repo";
import { AppError } from "@/server/errors";
import { getRuntime, tableOf } from "@/server/runtime";
import { createSignedInCreator } from "./testing/create-signed-in-creator";
import { updateCreatorProfile } from "./update-creator-profile";

const runtime = getRuntime();
const table = tableOf(runtime);

describe("updateCreatorProfile", () => {
  it("saves a display name, time zone and the ready email setting, and bumps the version", async () => {
    const { creatorId } = await createSignedInCreator({ runtime });
    const updated = await updateCreatorProfile({
      runtime,
      creatorId,
      changes: {
        displayName: "  Ada  ",
        timezone: "America/New_York",
        emailWhenClipsReady: true,
        expectedVersion: 1,
      },
    });
    expect(updated).toMatchObject({ displayName: "Ada", timezone: "America/New_York", version: 2 });
    const cleared = await updateCreatorProfile({
      runtime,
      creatorId,
      changes: { displayName: "", timezone: "UTC", emailWhenClipsReady: false, expectedVersion: 2 },
    });
    expect(cleared).toMatchObject({ displayName: null, emailWhenClipsReady: false });
  });

  it("refuses an unknown time zone and a stale form, changing nothing", async () => {
    const { creatorId } = await createSignedInCreator({ runtime });
    await expect(
      updateCreatorProfile({
        runtime,
        creatorId,
        changes: { displayName: "x", timezone: "Mars/Base", emailWhenClipsReady: true, expectedVersion: 1 },
      }),
    ).rejects.toThrow(/time zone/);
    await updateCreatorProfile({
      runtime,
      creatorId,
      changes: { displayName: "first", timezone: "UTC", emailWhenClipsReady: true, expectedVersion: 1 },
    });
    const stale = await updateCreatorProfile({
      runtime,
      creatorId,
      changes: { displayName: "second", timezone: "UTC", emailWhenClipsReady: true, expectedVersion: 1 },
    }).catch((error) => error);
    expect(stale).toBeInstanceOf(AppError);
    expect((stale as AppError).code).toBe("conflict");
    expect((await findCreatorById({ table, creatorId }))?.displayName).toBe("first");
  });
});
