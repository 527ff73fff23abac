import { z } from "zod";
import { ApiTokenName } from "@/server/auth/api-tokens/api-token-name";
import { assertSessionForTokenManagement } from "@/server/auth/api-tokens/assert-session-for-token-management";
import { createApiTokenForCreator } from "@/server/auth/api-tokens/create-api-token";
import { listApiTokens } from "@/server/auth/api-tokens/list-api-tokens";
import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";

export const dynamic = "force-dynamic";

const CreateTokenBody = z.object({ name: ApiTokenName }).strict();

// GET /api/tokens – the caller's API tokens (names and dates, never the tokens)
export const GET = withCreator(async (_request, { creatorId, runtime }) => {
  const tokens = await listApiTokens({ runtime, creatorId });
  return jsonResponse({ tokens });
});

// POST /api/tokens – create a token {name}; the response is the only time it is shown
export const POST = withCreator(async (request, { creatorId, runtime, via }) => {
  assertSessionForTokenManagement(via);
  const body = await readJsonBody(request, CreateTokenBody, 4 * 1024);
  const { token, apiToken } = await createApiTokenForCreator({ runtime, creatorId, name: body.name });
  return jsonResponse({ token, apiToken }, 201);
});
