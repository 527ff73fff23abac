"use server";

import { revalidatePath } from "next/cache";
import { getCurrentCreator } from "@/server/auth/get-current-creator";
import { updateCreatorProfile } from "@/server/auth/update-creator-profile";
import { toAppError } from "@/server/errors";
import { getRuntime } from "@/server/runtime";

/** What the form's fields hold. */
export type ProfileFormValues = { displayName: string; timezone: string; emailWhenClipsReady: boolean };

/**
 * After a save, `values` are what the fields show next: the saved profile, or what the creator
 * typed when it could not be saved (React resets the form's fields after its action; their
 * defaults must be these, or the typing is lost).
 */
export type ProfileFormState =
  | { status: "idle"; version: number }
  | { status: "saved"; version: number; values: ProfileFormValues }
  | { status: "error"; version: number; message: string; values?: ProfileFormValues };

// Settings → Profile: display name, time zone and ready emails of the signed-in creator.
export async function updateProfileAction(
  previous: ProfileFormState,
  formData: FormData,
): Promise<ProfileFormState> {
  const typed: ProfileFormValues = {
    displayName: String(formData.get("displayName") ?? ""),
    timezone: String(formData.get("timezone") ?? ""),
    // A checkbox is sent only when ticked.
    emailWhenClipsReady: formData.get("emailWhenClipsReady") === "on",
  };
  const creator = await getCurrentCreator();
  if (!creator)
    return {
      status: "error",
      version: previous.version,
      message: "Your session has ended. Sign in again.",
      values: typed,
    };
  try {
    const updated = await updateCreatorProfile({
      runtime: getRuntime(),
      creatorId: creator.creatorId,
      changes: { ...typed, expectedVersion: Number(formData.get("expectedVersion")) },
    });
    revalidatePath("/", "layout");
    return {
      status: "saved",
      version: updated.version,
      values: {
        displayName: updated.displayName ?? "",
        timezone: updated.timezone,
        emailWhenClipsReady: updated.emailWhenClipsReady,
      },
    };
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "internal") console.error("[truss] profile update failed:", error);
    const message =
      appError.code === "validation_failed"
        ? appError.message.replace(/^Invalid input: \w+: /, "")
        : appError.message;
    return { status: "error", version: previous.version, message, values: typed };
  }
}
