import "server-only";
import { deleteApiToken } from "@/db/repos/api-token-repo";
import { isId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";

/** Revokes one of the creator's tokens; it stops authenticating immediately. */
export async function revokeApiToken(options: { runtime: Runtime; creatorId: string; tokenId: string }) {
  if (!isId("apiToken", options.tokenId)) throw new AppError("not_found", "No such token.");
  await deleteApiToken({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    tokenId: options.tokenId,
  });
}
