import { type NextRequest, NextResponse } from "next/server";
import { CALLBACK_PATH_HEADER, loginPathFor } from "@/server/auth/callback-url";
import { hasSessionCookie, readSessionCookie, sessionCookieOptions } from "@/server/auth/session-cookie";
import { createSlideMarker, isSlideMarkerCurrent, slideMarkerCookieName } from "@/server/auth/slide-marker";
import { slideSession } from "@/server/auth/slide-session";
import { deriveSecret, getRuntime, tableOf } from "@/server/runtime";

/**
 * The fast path of route protection: it looks for a session cookie (either name) and never
 * trusts it. Server components (`requireCurrentCreator`) and API routes (`withCreator`)
 * verify the session in the table themselves.
 *
 * It also slides sessions (slide-session.ts): this is the one place every signed-in request
 * passes through that can set a cookie on the response, pages included (Server Components
 * cannot). It runs on the Node.js runtime (Next 16's only proxy runtime), so it can reach
 * the table. Sliding never decides access; if it fails, the request goes on unchanged.
 * A session is read for sliding only when its slide marker (slide-marker.ts) is missing or
 * has lapsed: about once per `updateAge` per browser, so an ordinary request, a poll
 * included, costs only the read its page or route does to authenticate.
 *
 * - Pages without a cookie → redirect to /login?callbackUrl=<the page>.
 * - /api/* without a cookie or a Bearer header → 401 JSON. A Bearer header passes through to
 *   the route's real check.
 */

/** Reachable without signing in. */
const PUBLIC_PAGE_PREFIXES = ["/login", "/dev/"];
const PUBLIC_API_PREFIXES = ["/api/auth/", "/api/health"];

function isPublicPath(pathname: string): boolean {
  if (pathname === "/") return true;
  if (pathname.startsWith("/api/"))
    return PUBLIC_API_PREFIXES.some((prefix) => matchesPrefix(pathname, prefix));
  return PUBLIC_PAGE_PREFIXES.some((prefix) => matchesPrefix(pathname, prefix));
}

function matchesPrefix(pathname: string, prefix: string): boolean {
  if (prefix.endsWith("/")) return pathname.startsWith(prefix);
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (isPublicPath(pathname)) return NextResponse.next();

  const cookieHeader = request.headers.get("cookie");
  const hasCredentials =
    hasSessionCookie(cookieHeader) ||
    (pathname.startsWith("/api/") && /^Bearer\s+\S/i.test(request.headers.get("authorization") ?? ""));

  if (!hasCredentials) {
    if (pathname.startsWith("/api/")) {
      return NextResponse.json(
        {
          error: {
            code: "unauthorized",
            message: "Sign in, or send a personal API token as `Authorization: Bearer <token>`.",
          },
        },
        { status: 401, headers: { "cache-control": "no-store" } },
      );
    }
    return NextResponse.redirect(new URL(loginPathFor(`${pathname}${search}`), request.url));
  }

  // Tell server components which page was asked for, so an invalid session can still be
  // sent to the login page with the right callbackUrl. Always overwritten: never client input.
  const headers = new Headers(request.headers);
  headers.set(CALLBACK_PATH_HEADER, `${pathname}${search}`);
  const response = NextResponse.next({ request: { headers } });
  await refreshSessionWhenDue(request, response);
  return response;
}

/**
 * Push a due session's expiry forward in the table and in the browser's cookie, unless the
 * session's slide marker says it is not due yet. Every read renews the marker until the
 * session's next due time, so reads happen only when a slide may be needed.
 */
async function refreshSessionWhenDue(request: NextRequest, response: NextResponse): Promise<void> {
  // A request authenticated by an API token is checked by the route alone, cookie or not.
  if (request.headers.has("authorization")) return;
  const cookie = readSessionCookie(request.headers.get("cookie"));
  if (!cookie) return;
  try {
    const runtime = getRuntime();
    const markerKey = deriveSecret(runtime.config.auth.secret, "session-slide-marker");
    const markerName = slideMarkerCookieName(cookie.name);
    const isMarkerCurrent = isSlideMarkerCurrent({
      key: markerKey,
      sessionToken: cookie.value,
      marker: request.cookies.get(markerName)?.value,
      nowMs: Date.now(),
    });
    if (isMarkerCurrent) return;
    const { expires, nextSlideAt } = await slideSession({
      table: tableOf(runtime),
      config: runtime.config,
      sessionToken: cookie.value,
    });
    if (expires) response.cookies.set(cookie.name, cookie.value, sessionCookieOptions(cookie.name, expires));
    if (nextSlideAt) {
      const marker = createSlideMarker({ key: markerKey, sessionToken: cookie.value, until: nextSlideAt });
      response.cookies.set(markerName, marker, sessionCookieOptions(cookie.name, nextSlideAt));
    }
  } catch (error) {
    console.error("[auth] could not extend the session", error);
  }
}

export const config = {
  // Everything except Next's own assets and files with an extension (icons, images).
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|.*\\.[a-zA-Z0-9]+$).*)"],
};
