import { describe, expect, it } from "vitest";
import { DELETE as deleteToken, PATCH as renameToken } from "@/app/api/tokens/[tokenId]/route";
import { POST as createToken, GET as listTokens } from "@/app/api/tokens/route";
import { createId } from "@/lib/ids";
import { getRuntime } from "@/server/runtime";
import { createSignedInCreator } from "../testing/create-signed-in-creator";

/**
 * /api/tokens through the real route handlers and `withCreator`: tokens authenticate like a
 * session, stop at once when revoked, and no route lets one creator touch another's tokens.
 */

const runtime = getRuntime();
const base = `${runtime.config.appUrl}/api/tokens`;
const noParams = { params: Promise.resolve({}) as Promise<Record<string, never>> };
const tokenParams = (tokenId: string) => ({ params: Promise.resolve({ tokenId }) });

type Credentials = { cookie?: string; bearer?: string; origin?: string };

function headersFor(credentials: Credentials, json = false): Headers {
  const headers = new Headers();
  if (credentials.cookie) headers.set("cookie", credentials.cookie);
  if (credentials.bearer) headers.set("authorization", `Bearer ${credentials.bearer}`);
  if (credentials.origin) headers.set("origin", credentials.origin);
  if (json) headers.set("content-type", "application/json");
  return headers;
}

const list = (credentials: Credentials) =>
  listTokens(new Request(base, { headers: headersFor(credentials) }), noParams);

const create = (credentials: Credentials, body: unknown) =>
  createToken(
    new Request(base, { method: "POST", headers: headersFor(credentials, true), body: JSON.stringify(body) }),
    noParams,
  );

const revoke = (credentials: Credentials, tokenId: string) =>
  deleteToken(
    new Request(`${base}/${tokenId}`, { method: "DELETE", headers: headersFor(credentials) }),
    tokenParams(tokenId),
  );

const rename = (credentials: Credentials, tokenId: string, name: string) =>
  renameToken(
    new Request(`${base}/${tokenId}`, {
      method: "PATCH",
      headers: headersFor(credentials, true),
      body: JSON.stringify({ name }),
    }),
    tokenParams(tokenId),
  );

async function createdToken(cookie: string, name: string) {
  const response = await create({ cookie }, { name });
  expect(response.status).toBe(201);
  return (await response.json()) as { token: string; apiToken: { tokenId: string; name: string } };
}

describe("/api/tokens", () => {
  it("an API token works on an API route and stops working once revoked", async () => {
    const creator = await createSignedInCreator({ runtime });
    const { token, apiToken } = await createdToken(creator.cookie, "  CI uploads  ");
    expect(apiToken.name).toBe("CI uploads");
    expect(token).toMatch(/^truss_/);

    const withToken = await list({ bearer: token });
    expect(withToken.status).toBe(200);
    const listed = (await withToken.json()) as { tokens: Array<Record<string, unknown>> };
    expect(listed.tokens.map((row) => row.tokenId)).toEqual([apiToken.tokenId]);
    // Shown once: never listed again, nor its hash.
    expect(JSON.stringify(listed)).not.toContain(token.slice(6));
    expect(listed.tokens[0]).not.toHaveProperty("tokenHash");

    expect((await revoke({ cookie: creator.cookie }, apiToken.tokenId)).status).toBe(204);
    const afterRevoke = await list({ bearer: token });
    expect(afterRevoke.status).toBe(401);
    expect((await afterRevoke.json()).error.code).toBe("unauthorized");
  });

  it("a token cannot create, rename or revoke tokens, its own or another: managing them takes a session", async () => {
    const creator = await createSignedInCreator({ runtime });
    const { token, apiToken } = await createdToken(creator.cookie, "script");
    const other = await createdToken(creator.cookie, "laptop");
    const answers = [
      await create({ bearer: token }, { name: "copy" }),
      await rename({ bearer: token }, other.apiToken.tokenId, "leaked"),
      await revoke({ bearer: token }, other.apiToken.tokenId),
      await rename({ bearer: token }, apiToken.tokenId, "renamed"),
      await revoke({ bearer: token }, apiToken.tokenId),
    ];
    const bodies = [];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      bodies.push(await answer.json());
    }
    // One refusal, the same for every way of managing tokens.
    expect(bodies[0]).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
    for (const body of bodies) expect(body).toEqual(bodies[0]);

    const listed = (await (await list({ cookie: creator.cookie })).json()) as {
      tokens: Array<{ tokenId: string; name: string }>;
    };
    expect(listed.tokens.map((row) => [row.tokenId, row.name])).toEqual([
      [other.apiToken.tokenId, "laptop"],
      [apiToken.tokenId, "script"],
    ]);
    expect((await list({ bearer: token })).status).toBe(200);
    expect((await list({ bearer: other.token })).status).toBe(200);
  });

  it("one creator can never read, rename or revoke another creator's tokens", async () => {
    const owner = await createSignedInCreator({ runtime });
    const intruder = await createSignedInCreator({ runtime });
    const { token, apiToken } = await createdToken(owner.cookie, "owner's token");

    const intruderList = await list({ cookie: intruder.cookie });
    expect((await intruderList.json()).tokens).toEqual([]);
    expect((await rename({ cookie: intruder.cookie }, apiToken.tokenId, "mine now")).status).toBe(404);
    expect((await revoke({ cookie: intruder.cookie }, apiToken.tokenId)).status).toBe(404);

    // The intruder's own API token is scoped to the intruder as well (and manages no tokens:
    // refused before any lookup, so it learns nothing about the id).
    const intruderToken = await createdToken(intruder.cookie, "intruder");
    expect((await revoke({ bearer: intruderToken.token }, apiToken.tokenId)).status).toBe(403);
    const seenByIntruderToken = await (await list({ bearer: intruderToken.token })).json();
    expect(seenByIntruderToken.tokens.map((row: { tokenId: string }) => row.tokenId)).toEqual([
      intruderToken.apiToken.tokenId,
    ]);

    // The owner's token is untouched and still works.
    const ownerView = await (await list({ bearer: token })).json();
    expect(ownerView.tokens).toEqual([
      expect.objectContaining({ tokenId: apiToken.tokenId, name: "owner's token" }),
    ]);
  });

  it("renames a token; bad names and unknown ids are clear 4xx", async () => {
    const creator = await createSignedInCreator({ runtime });
    const { apiToken } = await createdToken(creator.cookie, "old");
    const renamed = await rename({ cookie: creator.cookie }, apiToken.tokenId, "new");
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).apiToken.name).toBe("new");
    expect((await rename({ cookie: creator.cookie }, apiToken.tokenId, "   ")).status).toBe(422);
    expect((await rename({ cookie: creator.cookie }, createId("apiToken"), "x")).status).toBe(404);
    expect((await revoke({ cookie: creator.cookie }, "not-an-id")).status).toBe(404);
  });

  describe("bad input gets a clear 4xx and writes nothing", () => {
    it("no credentials, a forged cookie, or a forged or malformed bearer → 401", async () => {
      for (const credentials of [
        {},
        { cookie: `authjs.session-token=${"x".repeat(43)}` },
        { bearer: `truss_${"x".repeat(43)}` },
        { bearer: "not-a-token" },
      ] satisfies Credentials[]) {
        const response = await list(credentials);
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({
          error: { code: "unauthorized", message: expect.any(String) },
        });
      }
    });

    it("a forged cookie cannot create a token", async () => {
      const forged = `authjs.session-token=${"y".repeat(43)}`;
      expect((await create({ cookie: forged }, { name: "x" })).status).toBe(401);
    });

    it("a bad bearer is not rescued by a valid cookie", async () => {
      const creator = await createSignedInCreator({ runtime });
      expect((await list({ cookie: creator.cookie, bearer: `truss_${"z".repeat(43)}` })).status).toBe(401);
    });

    it("oversized, malformed and invalid bodies → 413 / 400 / 422, nothing created", async () => {
      const creator = await createSignedInCreator({ runtime });
      const oversized = await createToken(
        new Request(base, {
          method: "POST",
          headers: headersFor({ cookie: creator.cookie }, true),
          body: JSON.stringify({ name: "x".repeat(10_000) }),
        }),
        noParams,
      );
      expect(oversized.status).toBe(413);
      const malformed = await createToken(
        new Request(base, {
          method: "POST",
          headers: headersFor({ cookie: creator.cookie }, true),
          body: "{",
        }),
        noParams,
      );
      expect(malformed.status).toBe(400);
      expect((await create({ cookie: creator.cookie }, { name: "x".repeat(61) })).status).toBe(422);
      expect((await create({ cookie: creator.cookie }, {})).status).toBe(422);
      expect((await create({ cookie: creator.cookie }, { name: "CI", expiresInDays: 30 })).status).toBe(422);
      expect((await (await list({ cookie: creator.cookie })).json()).tokens).toEqual([]);
    });

    it("a cookie-authenticated write from another site → 403, nothing created", async () => {
      const creator = await createSignedInCreator({ runtime });
      const crossSite = await create(
        { cookie: creator.cookie, origin: "https://evil.example" },
        { name: "x" },
      );
      expect(crossSite.status).toBe(403);
      expect((await (await list({ cookie: creator.cookie })).json()).tokens).toEqual([]);
      const sameSite = await create(
        { cookie: creator.cookie, origin: runtime.config.appUrl },
        { name: "ok" },
      );
      expect(sameSite.status).toBe(201);
    });
  });
});
