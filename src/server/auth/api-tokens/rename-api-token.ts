import "server-only";
import { type ApiToken, renameApiToken as renameStoredApiToken } from "@/db/repos/api-token-repo";
import { isId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";

/** Renames one of the creator's tokens. */
export async function renameApiToken(options: {
  runtime: Runtime;
  creatorId: string;
  tokenId: string;
  name: string;
}): Promise<ApiToken> {
  if (!isId("apiToken", options.tokenId)) throw new AppError("not_found", "No such token.");
  return renameStoredApiToken({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    tokenId: options.tokenId,
    name: options.name,
  });
}
