"use server";

import { revalidatePath } from "next/cache";
import { getCurrentCreator } from "@/server/auth/get-current-creator";
import { updateCreatorProfile } from "@/server/auth/update-creator-profile";
import { toAppError } from "@/server/errors";
import { getRuntime } from "@/server/runtime";

export type ProfileFormState =
  | { status: "idle"; version: number }
  | { status: "saved"; version: number }
  | { status: "error"; version: number; message: string };

// Settings → Profile: display name, time zone and ready emails of the signed-in creator.
export async function updateProfileAction(
  previous: ProfileFormState,
  formData: FormData,
): Promise<ProfileFormState> {
  const creator = await getCurrentCreator();
  if (!creator)
    return { status: "error", version: previous.version, message: "Your session has ended. Sign in again." };
  try {
    const updated = await updateCreatorProfile({
      runtime: getRuntime(),
      creatorId: creator.creatorId,
      changes: {
        displayName: String(formData.get("displayName") ?? ""),
        timezone: String(formData.get("timezone") ?? ""),
        // A checkbox is sent only when ticked.
        emailWhenClipsReady: formData.get("emailWhenClipsReady") === "on",
        expectedVersion: Number(formData.get("expectedVersion")),
      },
    });
    revalidatePath("/", "layout");
    return { status: "saved", version: updated.version };
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "internal") console.error("[truss] profile update failed:", error);
    const message =
      appError.code === "validation_failed"
        ? appError.message.replace(/^Invalid input: \w+: /, "")
        : appError.message;
    return { status: "error", version: previous.version, message };
  }
}
