import "server-only";
import { seeOtherResponse } from "@/server/http/respond";
import { confirmSignInPathFor, SIGN_IN_CALLBACK_PATH } from "./sign-in-link";

/**
 * GET /api/auth/*. Auth.js's, except the magic-link callback: a GET there never spends the
 * token (a mail scanner, a link preview, or a link emailed before links went to the confirm
 * page) and is sent to the confirm page with the same parameters. Only the confirm page's
 * POST reaches Auth.js's callback (see handle-auth-post.ts).
 */
export async function handleAuthGet(
  request: Request,
  authjs: (request: Request) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === SIGN_IN_CALLBACK_PATH) return seeOtherResponse(confirmSignInPathFor(url.searchParams));
  return authjs(request);
}
