import { z } from "zod";
import { ApiTokenName } from "@/server/auth/api-tokens/api-token-name";
import { assertSessionForTokenManagement } from "@/server/auth/api-tokens/assert-session-for-token-management";
import { renameApiToken } from "@/server/auth/api-tokens/rename-api-token";
import { revokeApiToken } from "@/server/auth/api-tokens/revoke-api-token";
import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";

export const dynamic = "force-dynamic";

const RenameTokenBody = z.object({ name: ApiTokenName }).strict();

// PATCH /api/tokens/:tokenId – rename one of the caller's tokens {name} (signed in, not with a token)
export const PATCH = withCreator<{ tokenId: string }>(
  async (request, { creatorId, runtime, via }, { tokenId }) => {
    assertSessionForTokenManagement(via);
    const body = await readJsonBody(request, RenameTokenBody, 4 * 1024);
    const apiToken = await renameApiToken({ runtime, creatorId, tokenId, name: body.name });
    return jsonResponse({ apiToken });
  },
);

// DELETE /api/tokens/:tokenId – revoke one of the caller's tokens (404 if it is not theirs;
// signed in, not with a token)
export const DELETE = withCreator<{ tokenId: string }>(
  async (_request, { creatorId, runtime, via }, { tokenId }) => {
    assertSessionForTokenManagement(via);
    await revokeApiToken({ runtime, creatorId, tokenId });
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  },
);
