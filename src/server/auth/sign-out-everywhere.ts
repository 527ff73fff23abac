import "server-only";
import { deleteAllSessionsOfCreator } from "@/db/repos/session-repo";
import { type Runtime, tableOf } from "@/server/runtime";

/**
 * Ends every session of the creator, on every device. API tokens are separate credentials
 * and stay valid; they are revoked one by one in Settings.
 */
export async function signOutEverywhere(options: { runtime: Runtime; creatorId: string }): Promise<number> {
  return deleteAllSessionsOfCreator({ table: tableOf(options.runtime), creatorId: options.creatorId });
}
