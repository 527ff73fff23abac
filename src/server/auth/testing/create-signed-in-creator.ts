import { randomBytes, randomUUID } from "node:crypto";
import { createCreator } from "@/db/repos/creator-repo";
import { createSession } from "@/db/repos/session-repo";
import { createId } from "@/lib/ids";
import { type Runtime, tableOf } from "@/server/runtime";
import { hashToken } from "../hash-token";

/**
 * For integration tests of routes behind `withCreator`: a fresh creator with a live session,
 * written through the same repositories sign-in uses, and the `Cookie` header that carries it.
 * (The magic-link flow itself is covered by src/server/auth/sign-in-flow.int.test.ts.)
 */
export async function createSignedInCreator(options: {
  runtime: Runtime;
  email?: string;
  sessionTtlMs?: number;
}): Promise<{ creatorId: string; email: string; sessionToken: string; cookie: string }> {
  const table = tableOf(options.runtime);
  const email = options.email ?? `creator-${randomUUID()}@example.test`;
  const creator = await createCreator({
    table,
    creatorId: createId("creator"),
    email,
    emailVerifiedAt: new Date(),
  });
  const sessionToken = randomBytes(32).toString("base64url");
  await createSession({
    table,
    tokenHash: hashToken(sessionToken),
    creatorId: creator.creatorId,
    expires: new Date(Date.now() + (options.sessionTtlMs ?? 60 * 60 * 1000)),
  });
  return {
    creatorId: creator.creatorId,
    email,
    sessionToken,
    cookie: `authjs.session-token=${sessionToken}`,
  };
}
