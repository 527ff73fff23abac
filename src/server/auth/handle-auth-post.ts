import "server-only";
import { z } from "zod";
import { AppError } from "@/server/errors";
import { isSameOrigin } from "@/server/http/is-same-origin";
import { errorResponse, jsonResponse, readJsonBody, seeOtherResponse } from "@/server/http/respond";
import { getRuntime } from "@/server/runtime";
import { clientAddressOf } from "./client-address";
import { EmailAddress } from "./normalize-email";
import { requestMagicLink } from "./request-magic-link";
import {
  AUTH_BASE_PATH,
  confirmSignInPathFor,
  EMAIL_PROVIDER_ID,
  readSignInLink,
  SIGN_IN_CALLBACK_PATH,
  signInCallbackPathFor,
  withSignInLinkOnErrorPage,
} from "./sign-in-link";

const MagicLinkRequest = z.object({
  email: EmailAddress,
  callbackUrl: z.string().max(2048, "callbackUrl is too long.").nullish(),
});

/** A sign-in request is an email and a path: a few hundred bytes. */
export const MAX_MAGIC_LINK_BODY_BYTES = 4 * 1024;

/**
 * POST /api/auth/*. Requesting a sign-in link is ours (JSON `{email, callbackUrl?}`, checked
 * and rate limited, then handed to Auth.js); so is the magic-link callback, which the confirm
 * page's button posts to (checked, then handed to Auth.js); every other sign-in or callback
 * path is closed, because it would reach Auth.js without those checks; the rest (signout,
 * session) goes to `authjs`.
 */
export async function handleAuthPost(
  request: Request,
  authjs: (request: Request) => Promise<Response>,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === `${AUTH_BASE_PATH}/signin/${EMAIL_PROVIDER_ID}`) return sendSignInLink(request);
  if (pathname === SIGN_IN_CALLBACK_PATH) return confirmSignIn(request, authjs);
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

/**
 * The confirm page's "Sign in" button: the only request that spends a sign-in token. It must
 * come from our own pages, so another site cannot post its own account's link and sign a
 * visitor in as someone else. A link that is incomplete or points off the site goes back to
 * the confirm page, which says what is wrong; otherwise Auth.js gets a request rebuilt from
 * the checked parameters, verifies the token, sets the session cookie and redirects. A refused
 * link's error page is told the link's email and target, to offer a new link like it.
 */
async function confirmSignIn(
  request: Request,
  authjs: (request: Request) => Promise<Response>,
): Promise<Response> {
  try {
    const { appUrl } = getRuntime().config;
    if (!isSameOrigin(request, appUrl)) {
      throw new AppError("forbidden", "Cross-site requests are not allowed.");
    }
    const url = new URL(request.url);
    const appOrigin = new URL(appUrl).origin;
    const reading = readSignInLink(url.searchParams, appOrigin);
    if (!reading.ok) return seeOtherResponse(confirmSignInPathFor(url.searchParams));
    // Auth.js reads the token from the query; the form's own body carries nothing.
    const headers = new Headers(request.headers);
    headers.delete("content-type");
    headers.delete("content-length");
    const target = new URL(signInCallbackPathFor(reading.link), url);
    const response = await authjs(new Request(target, { method: "POST", headers }));
    const location = response.headers.get("location");
    if (location === null) return response;
    const redirected = new Headers(response.headers);
    redirected.set("location", withSignInLinkOnErrorPage(location, reading.link, appOrigin));
    return new Response(response.body, { status: response.status, headers: redirected });
  } catch (error) {
    return errorResponse(error);
  }
}
