import "server-only";
import { AppError } from "@/server/errors";
import { isSameOrigin } from "@/server/http/is-same-origin";
import { errorResponse } from "@/server/http/respond";
import { getRuntime, type Runtime } from "@/server/runtime";
import { authenticateRequest } from "./authenticate-request";

export type CreatorContext = { creatorId: string; runtime: Runtime; via: "session" | "api-token" };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Wraps an App Router route handler: authenticates by session cookie (either cookie name) or
 * `Authorization: Bearer <api token>`, answers 401 JSON {"error":{"code":"unauthorized",...}}
 * otherwise, and maps thrown errors through errorResponse(). The handler receives the
 * creator id from here, never from the client.
 */
export function withCreator<Params extends Record<string, string> = Record<string, never>>(
  handler: (request: Request, context: CreatorContext, params: Params) => Promise<Response>,
): (request: Request, routeContext: { params: Promise<Params> }) => Promise<Response> {
  return async (request, routeContext) => {
    try {
      const runtime = getRuntime();
      const identity = await authenticateRequest({ runtime, headers: request.headers });
      if (!identity) {
        throw new AppError(
          "unauthorized",
          "Sign in, or send a personal API token as `Authorization: Bearer <token>`.",
        );
      }
      // Cookies ride along on cross-site requests; a write authenticated by cookie must come
      // from our own pages. (Bearer tokens are never sent by a browser on its own.)
      if (
        identity.via === "session" &&
        !SAFE_METHODS.has(request.method) &&
        !isSameOrigin(request, runtime.config.appUrl)
      ) {
        throw new AppError("forbidden", "Cross-site requests are not allowed.");
      }
      const params = await routeContext.params;
      return await handler(request, { creatorId: identity.creatorId, runtime, via: identity.via }, params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
