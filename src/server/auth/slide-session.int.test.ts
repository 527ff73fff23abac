import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { sessionRefKey } from "@/db/keys";
import { deleteSession, extendSessionExpiry, findSession } from "@/db/repos/session-repo";
import { countTableRequests } from "@/db/testing/count-table-requests";
import { proxy } from "@/proxy";
import { getRuntime, tableOf } from "@/server/runtime";
import { authenticateRequest } from "./authenticate-request";
import { hashToken } from "./hash-token";
import { signOutEverywhere } from "./sign-out-everywhere";
import { SESSION_UPDATE_AGE_SECONDS, sessionMaxAgeSeconds } from "./slide-session";
import { createSignedInCreator } from "./testing/create-signed-in-creator";

/**
 * Sliding sessions through the proxy (the real table, the real proxy function): a session
 * whose expiry was set more than `updateAge` ago and is used again gets now + `maxAge`, in
 * the table and in the cookie. Sessions are written with an expiry as if signed in earlier.
 * Every read also sets the slide marker (slide-marker.ts), which spares the next requests the
 * read until the session is due again.
 */

const runtime = getRuntime();
const table = tableOf(runtime);
const maxAgeMs = sessionMaxAgeSeconds(runtime.config) * 1000;
const updateAgeMs = SESSION_UPDATE_AGE_SECONDS * 1000;

/** A signed-in creator whose session expiry was last set `ageMs` ago. */
async function sessionAged(ageMs: number) {
  const signedIn = await createSignedInCreator({ runtime, sessionTtlMs: maxAgeMs - ageMs });
  const tokenHash = hashToken(signedIn.sessionToken);
  const stored = (await findSession({ table, tokenHash }))!;
  return { ...signedIn, tokenHash, stored };
}

async function visit(cookie: string, path = "/dashboard") {
  return proxy(new NextRequest(new URL(path, runtime.config.appUrl), { headers: { cookie } }));
}

/** The Set-Cookie line for `name` in a response, if any. */
function setCookieNamed(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

function expiresOf(setCookie: string | undefined): number | undefined {
  const expires = /Expires=([^;]+)/i.exec(setCookie ?? "")?.[1];
  return expires === undefined ? undefined : new Date(expires).getTime();
}

/** A browser's cookies for the app: starts with the session cookie, keeps what responses set. */
function cookieJar(initial: string) {
  const cookies = new Map<string, string>();
  const store = (pair: string) => {
    const separator = pair.indexOf("=");
    cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
  };
  store(initial);
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    keep(response: Response) {
      for (const line of response.headers.getSetCookie()) store(line.split(";")[0]!);
    },
  };
}

/** A guarded API request as the app serves it: the proxy, then the route's own session check. */
async function guardedRequest(jar: ReturnType<typeof cookieJar>, path: string) {
  const response = await visit(jar.header(), path);
  expect(response.headers.get("x-middleware-next")).toBe("1");
  jar.keep(response);
  return authenticateRequest({ runtime, headers: new Headers({ cookie: jar.header() }) });
}

const MARKER = "truss.session-slide";

async function storedExpiries(session: { tokenHash: string; creatorId: string }) {
  const item = await findSession({ table, tokenHash: session.tokenHash });
  const ref = await table.documentClient.send(
    new GetCommand({ TableName: table.tableName, Key: sessionRefKey(session.creatorId, session.tokenHash) }),
  );
  return { session: item?.expiresAt, ref: ref.Item?.expiresAt as number | undefined };
}

describe("sliding sessions", () => {
  it("a session used after updateAge gets now + maxAge, in the table and the cookie, once", async () => {
    const session = await sessionAged(updateAgeMs + 60_000);
    const before = Date.now();
    const response = await visit(session.cookie);
    expect(response.headers.get("x-middleware-next")).toBe("1");

    const expiries = await storedExpiries(session);
    expect(expiries.session).toBe(expiries.ref);
    expect(expiries.session! * 1000).toBeGreaterThanOrEqual(Math.floor((before + maxAgeMs) / 1000) * 1000);
    expect(expiries.session! * 1000).toBeLessThanOrEqual(Date.now() + maxAgeMs);

    expect(response.headers.getSetCookie()).toHaveLength(2);
    const setCookie = setCookieNamed(response, "authjs.session-token");
    expect(setCookie).toContain(`authjs.session-token=${session.sessionToken}`);
    expect(expiresOf(setCookie)).toBe(expiries.session! * 1000);
    // The marker: not due again until updateAge after this slide. Same attributes as the session.
    const marker = setCookieNamed(response, MARKER);
    expect(expiresOf(marker)).toBe((expiries.session! - maxAgeMs / 1000) * 1000 + updateAgeMs);
    for (const line of [setCookie, marker]) {
      expect(line).toMatch(/HttpOnly/i);
      expect(line).toMatch(/SameSite=lax/i);
      expect(line).toMatch(/Path=\//);
      expect(line).not.toMatch(/Secure/);
    }

    // Just slid: the next request (even one without the marker) writes nothing and leaves
    // the session cookie alone.
    const again = await visit(session.cookie);
    expect(setCookieNamed(again, "authjs.session-token")).toBeUndefined();
    expect(expiresOf(setCookieNamed(again, MARKER))).toBe(expiresOf(marker));
    expect(await storedExpiries(session)).toEqual(expiries);
  });

  it("keeps the Secure cookie's name and attribute when refreshing it", async () => {
    const session = await sessionAged(updateAgeMs + 60_000);
    const response = await visit(`__Secure-authjs.session-token=${session.sessionToken}`, "/api/videos");
    const setCookie = setCookieNamed(response, "__Secure-authjs.session-token");
    expect(setCookie).toContain(`__Secure-authjs.session-token=${session.sessionToken}`);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookieNamed(response, `__Secure-${MARKER}`)).toMatch(/; Secure/i);
    expect(setCookieNamed(response, MARKER)).toBeUndefined();
  });

  it("a session used within updateAge is not written; it gets only a marker until it is due", async () => {
    const session = await sessionAged(updateAgeMs - 60_000);
    const response = await visit(session.cookie);
    expect(setCookieNamed(response, "authjs.session-token")).toBeUndefined();
    const dueAtMs = (session.stored.expiresAt - maxAgeMs / 1000) * 1000 + updateAgeMs;
    expect(expiresOf(setCookieNamed(response, MARKER))).toBe(dueAtMs);
    expect(await storedExpiries(session)).toEqual({
      session: session.stored.expiresAt,
      ref: session.stored.expiresAt,
    });
  });

  it("an expired session is not revived and gets no marker", async () => {
    const session = await sessionAged(maxAgeMs + 60_000);
    const response = await visit(session.cookie);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await storedExpiries(session)).toEqual({
      session: session.stored.expiresAt,
      ref: session.stored.expiresAt,
    });
    expect(
      await authenticateRequest({ runtime, headers: new Headers({ cookie: session.cookie }) }),
    ).toBeNull();
  });

  it("the write loses to a sign-out, an expiry or another slide after the read", async () => {
    const session = await sessionAged(updateAgeMs + 60_000);
    const newExpiresAt = Math.floor((Date.now() + maxAgeMs) / 1000);
    const afterExpiry = session.stored.expiresAt * 1000 + 1_000;
    expect(
      await extendSessionExpiry({
        table,
        session: session.stored,
        expiresAt: newExpiresAt,
        nowMs: afterExpiry,
      }),
    ).toBe(false);
    const staleRead = { ...session.stored, expiresAt: session.stored.expiresAt - 1 };
    expect(await extendSessionExpiry({ table, session: staleRead, expiresAt: newExpiresAt })).toBe(false);
    expect((await storedExpiries(session)).session).toBe(session.stored.expiresAt);

    await deleteSession({ table, tokenHash: session.tokenHash, creatorId: session.creatorId });
    expect(await extendSessionExpiry({ table, session: session.stored, expiresAt: newExpiresAt })).toBe(
      false,
    );
    expect(await storedExpiries(session)).toEqual({ session: undefined, ref: undefined });
  });
});

describe("the proxy's table reads (slide marker)", () => {
  it("N guarded requests cost N reads (the route's own) plus one proxy read, not 2N", async () => {
    const signedIn = await createSignedInCreator({ runtime, sessionTtlMs: maxAgeMs });
    const jar = cookieJar(signedIn.cookie);
    const requests = 10;
    const counter = countTableRequests(table);
    try {
      for (let request = 0; request < requests; request++) {
        const path = request % 2 === 0 ? "/api/videos/progress" : "/api/videos";
        expect(await guardedRequest(jar, path)).toEqual({ creatorId: signedIn.creatorId, via: "session" });
      }
      expect(counter.count("GetItem")).toBe(requests + 1);
      expect(counter.count()).toBe(requests + 1);

      // With the marker, page navigations and polls alike reach the table not at all in the proxy.
      counter.reset();
      for (const path of ["/dashboard", "/videos", "/api/videos/progress", "/settings"]) {
        const response = await visit(jar.header(), path);
        expect(response.headers.get("x-middleware-next")).toBe("1");
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      expect(counter.count()).toBe(0);
    } finally {
      counter.stop();
    }
  });

  it("an active creator keeps sliding: once the marker's time has come, the next request slides", async () => {
    const session = await sessionAged(updateAgeMs - 60_000);
    const jar = cookieJar(session.cookie);
    jar.keep(await visit(jar.header()));
    const dueAtMs = (session.stored.expiresAt - maxAgeMs / 1000) * 1000 + updateAgeMs;

    const counter = countTableRequests(table);
    const clock = vi.spyOn(Date, "now");
    try {
      // A client that keeps sending the marker after it lapsed (a browser would have dropped
      // it) is read and slid all the same: the time is in the signed value.
      clock.mockReturnValue(dueAtMs + 1_000);
      const response = await visit(jar.header());
      jar.keep(response);
      expect(counter.count("GetItem")).toBe(1);
      expect(counter.count("TransactWriteItems")).toBe(1);
      const newExpiresAt = Math.floor((dueAtMs + 1_000 + maxAgeMs) / 1000);
      expect(await storedExpiries(session)).toEqual({ session: newExpiresAt, ref: newExpiresAt });
      expect(expiresOf(setCookieNamed(response, "authjs.session-token"))).toBe(newExpiresAt * 1000);
      expect(expiresOf(setCookieNamed(response, MARKER))).toBe(
        Math.floor((dueAtMs + 1_000) / 1000) * 1000 + updateAgeMs,
      );

      // Just slid and marked: the next requests are free again.
      counter.reset();
      await visit(jar.header());
      expect(counter.count()).toBe(0);
    } finally {
      clock.mockRestore();
      counter.stop();
    }
  });

  it("a marker counts only for the session it was issued for", async () => {
    const first = await createSignedInCreator({ runtime, sessionTtlMs: maxAgeMs });
    const second = await createSignedInCreator({ runtime, sessionTtlMs: maxAgeMs });
    const firstMarker = setCookieNamed(await visit(first.cookie), MARKER)!.split(";")[0]!;

    const counter = countTableRequests(table);
    try {
      const response = await visit(`${second.cookie}; ${firstMarker}`);
      expect(counter.count("GetItem")).toBe(1);
      expect(setCookieNamed(response, MARKER)).toBeDefined();
      expect(setCookieNamed(response, MARKER)!.split(";")[0]).not.toBe(firstMarker);
    } finally {
      counter.stop();
    }
  });

  it("sign-out and sign-out-everywhere still refuse the session at once, marker or not", async () => {
    const signedIn = await createSignedInCreator({ runtime, sessionTtlMs: maxAgeMs });
    const other = await createSignedInCreator({ runtime, sessionTtlMs: maxAgeMs });
    const jar = cookieJar(signedIn.cookie);
    const otherJar = cookieJar(other.cookie);
    expect(await guardedRequest(jar, "/api/videos")).not.toBeNull();
    expect(await guardedRequest(otherJar, "/api/videos")).not.toBeNull();

    // Sign out of one browser: the session item is gone; its marker does not bring it back.
    await deleteSession({ table, tokenHash: hashToken(other.sessionToken), creatorId: other.creatorId });
    expect(await guardedRequest(otherJar, "/api/videos")).toBeNull();

    // Sign out everywhere: the proxy, trusting the marker, does not read, but the route does.
    expect(await signOutEverywhere({ runtime, creatorId: signedIn.creatorId })).toBe(1);
    const counter = countTableRequests(table);
    try {
      expect(await guardedRequest(jar, "/api/videos")).toBeNull();
      expect(counter.count("GetItem")).toBe(1);
    } finally {
      counter.stop();
    }
  });
});
