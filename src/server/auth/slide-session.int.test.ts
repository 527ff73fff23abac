import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { sessionRefKey } from "@/db/keys";
import { deleteSession, extendSessionExpiry, findSession } from "@/db/repos/session-repo";
import { proxy } from "@/proxy";
import { getRuntime, tableOf } from "@/server/runtime";
import { authenticateRequest } from "./authenticate-request";
import { hashToken } from "./hash-token";
import { SESSION_UPDATE_AGE_SECONDS, sessionMaxAgeSeconds } from "./slide-session";
import { createSignedInCreator } from "./testing/create-signed-in-creator";

/**
 * Sliding sessions through the proxy (the real table, the real proxy function): a session
 * whose expiry was set more than `updateAge` ago and is used again gets now + `maxAge`, in
 * the table and in the cookie. Sessions are written with an expiry as if signed in earlier.
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

    const [setCookie, ...others] = response.headers.getSetCookie();
    expect(others).toEqual([]);
    expect(setCookie).toContain(`authjs.session-token=${session.sessionToken}`);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    const cookieExpires = /Expires=([^;]+)/i.exec(setCookie!)?.[1];
    expect(new Date(cookieExpires!).getTime()).toBe(expiries.session! * 1000);

    // Just slid: the next request writes nothing and sets no cookie.
    const again = await visit(session.cookie);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await storedExpiries(session)).toEqual(expiries);
  });

  it("keeps the Secure cookie's name and attribute when refreshing it", async () => {
    const session = await sessionAged(updateAgeMs + 60_000);
    const response = await visit(`__Secure-authjs.session-token=${session.sessionToken}`, "/api/videos");
    const [setCookie] = response.headers.getSetCookie();
    expect(setCookie).toContain(`__Secure-authjs.session-token=${session.sessionToken}`);
    expect(setCookie).toMatch(/; Secure/i);
  });

  it("a session used within updateAge is not written and gets no cookie", async () => {
    const session = await sessionAged(updateAgeMs - 60_000);
    const response = await visit(session.cookie);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await storedExpiries(session)).toEqual({
      session: session.stored.expiresAt,
      ref: session.stored.expiresAt,
    });
  });

  it("an expired session is not revived", async () => {
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
