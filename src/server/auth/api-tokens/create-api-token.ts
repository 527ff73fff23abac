import "server-only";
import {
  type ApiToken,
  createApiToken,
  listApiTokensByCreator,
  MAX_API_TOKENS_PER_CREATOR,
} from "@/db/repos/api-token-repo";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { displayPrefixOf, generateApiToken } from "../api-token-format";
import { hashToken } from "../hash-token";

/**
 * Creates a personal API token. The returned `token` is the only time it exists in the
 * clear: the table keeps its SHA-256, so it cannot be shown again.
 */
export async function createApiTokenForCreator(options: {
  runtime: Runtime;
  creatorId: string;
  name: string;
}): Promise<{ token: string; apiToken: ApiToken }> {
  const table = tableOf(options.runtime);
  const existing = await listApiTokensByCreator({ table, creatorId: options.creatorId });
  if (existing.length >= MAX_API_TOKENS_PER_CREATOR) {
    throw new AppError(
      "conflict",
      `You have ${MAX_API_TOKENS_PER_CREATOR} tokens, the most allowed. Revoke one you no longer use first.`,
    );
  }
  const token = generateApiToken();
  const apiToken = await createApiToken({
    table,
    creatorId: options.creatorId,
    tokenId: createId("apiToken"),
    name: options.name,
    tokenHash: hashToken(token),
    displayPrefix: displayPrefixOf(token),
  });
  return { token, apiToken };
}
