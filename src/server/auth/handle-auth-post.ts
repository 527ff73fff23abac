import "server-only";
import { z } from "zod";
import { AppError } from "@/server/errors";
import { errorResponse, jsonResponse, readJsonBody } from "@/server/http/respond";
import { getRuntime } from "@/server/runtime";
import { AUTH_BASE_PATH, EMAIL_PROVIDER_ID } from "./auth-config";
import { clientAddressOf } from "./client-address";
import { EmailAddress } from "./normalize-email";
import { requestMagicLink } from "./request-magic-link";

const MagicLinkRequest = z.object({
  email: EmailAddress,
  callbackUrl: z.string().max(2048, "callbackUrl is too long.").nullish(),
});

/** A sign-in request is an email and a path: a few hundred bytes. */
export const MAX_MAGIC_LINK_BODY_BYTES = 4 * 1024;

/**
 * POST /api/auth/*. Requesting a sign-in link is ours (JSON `{email, callbackUrl?}`, checked
 * and rate limited, then handed to Auth.js); every other sign-in path is closed, because it
 * would reach Auth.js without those checks; the rest (signout, session) goes to `authjs`.
 */
export async function handleAuthPost(
  request: Request,
  authjs: (request: Request) => Promise<Response>,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === `${AUTH_BASE_PATH}/signin/${EMAIL_PROVIDER_ID}`) return sendSignInLink(request);
  if (pathname.startsWith(`${AUTH_BASE_PATH}/signin`) || pathname.startsWith(`${AUTH_BASE_PATH}/callback`)) {
    return errorResponse(
      new AppError(
        "not_found",
        `Use POST ${AUTH_BASE_PATH}/signin/${EMAIL_PROVIDER_ID} to request a sign-in link.`,
      ),
    );
  }
  return authjs(request);
}

async function sendSignInLink(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody(request, MagicLinkRequest, MAX_MAGIC_LINK_BODY_BYTES);
    const runtime = getRuntime();
    await requestMagicLink({
      runtime,
      normalizedEmail: body.email,
      callbackUrl: body.callbackUrl,
      clientAddress: clientAddressOf(request.headers, runtime.config.auth.trustedProxyHops),
    });
    // The same answer whether or not the email has an account.
    return jsonResponse(
      { status: "sent", message: "If the address can receive email, a sign-in link is on its way." },
      202,
    );
  } catch (error) {
    return errorResponse(error);
  }
}
