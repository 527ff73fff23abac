import "server-only";
import { type ApiToken, listApiTokensByCreator } from "@/db/repos/api-token-repo";
import { type Runtime, tableOf } from "@/server/runtime";

/** The creator's API tokens, newest first (names and dates; never the tokens). */
export async function listApiTokens(options: { runtime: Runtime; creatorId: string }): Promise<ApiToken[]> {
  return listApiTokensByCreator({ table: tableOf(options.runtime), creatorId: options.creatorId });
}
