import "server-only";
import type { Adapter, AdapterSession, AdapterUser } from "next-auth/adapters";
import {
  type Creator,
  createCreator,
  findCreatorById,
  findCreatorIdByEmail,
  updateCreator,
} from "@/db/repos/creator-repo";
import { consumeMagicLink, createMagicLink } from "@/db/repos/magic-link-repo";
import {
  createSession,
  deleteSession,
  findActiveSession,
  findSession,
  updateSessionExpiry,
} from "@/db/repos/session-repo";
import { isConditionFailure, type Table } from "@/db/table";
import { createId } from "@/lib/ids";
import { hashToken } from "./hash-token";
import { normalizeEmail } from "./normalize-email";

/**
 * Auth.js adapter on the single table. Auth.js's "user" is our creator; it only ever uses
 * email sign-in, so accounts (OAuth links) are not stored.
 *
 * Secrets never reach the table in the clear: Auth.js already hands verification tokens over
 * as SHA-256(token + secret), and session tokens are hashed here before they become keys.
 * `nowMs` is injectable so tests can check expiry without waiting.
 */
export function createTableAdapter(options: { table: Table; nowMs?: () => number }): Adapter {
  const { table } = options;
  const nowMs = options.nowMs ?? (() => Date.now());

  const toAdapterUser = (creator: Creator): AdapterUser => ({
    id: creator.creatorId,
    email: creator.email,
    emailVerified: creator.emailVerifiedAt ? new Date(creator.emailVerifiedAt) : null,
    name: creator.displayName,
  });

  const getUserByEmail = async (email: string) => {
    const creatorId = await findCreatorIdByEmail({ table, normalizedEmail: normalizeEmail(email) });
    if (!creatorId) return null;
    const creator = await findCreatorById({ table, creatorId });
    return creator ? toAdapterUser(creator) : null;
  };

  return {
    async createUser(user) {
      const email = normalizeEmail(user.email);
      try {
        const creator = await createCreator({
          table,
          // Auth.js proposes a random UUID; our ids are prefixed and time-sortable.
          creatorId: createId("creator"),
          email,
          displayName: user.name ?? null,
          emailVerifiedAt: user.emailVerified,
          now: new Date(nowMs()),
        });
        return toAdapterUser(creator);
      } catch (error) {
        // Two first sign-ins for one email raced: the lookup item decided who won; join them.
        if (!isConditionFailure(error)) throw error;
        const existing = await getUserByEmail(email);
        if (!existing) throw error;
        return existing;
      }
    },

    async getUser(id) {
      const creator = await findCreatorById({ table, creatorId: id });
      return creator ? toAdapterUser(creator) : null;
    },

    getUserByEmail,

    // Only email sign-in exists, so no account ever maps to a user.
    async getUserByAccount() {
      return null;
    },

    async updateUser(user) {
      const creator = await updateCreator({
        table,
        creatorId: user.id,
        changes: {
          ...(user.emailVerified !== undefined ? { emailVerifiedAt: user.emailVerified } : {}),
          ...(user.name !== undefined ? { displayName: user.name } : {}),
        },
        now: new Date(nowMs()),
      });
      return toAdapterUser(creator);
    },

    async linkAccount() {
      // Email sign-in never links accounts; nothing to store.
    },

    async createSession(session) {
      await createSession({
        table,
        tokenHash: hashToken(session.sessionToken),
        creatorId: session.userId,
        expires: session.expires,
        now: new Date(nowMs()),
      });
      return session;
    },

    async getSessionAndUser(sessionToken) {
      const session = await findActiveSession({ table, tokenHash: hashToken(sessionToken), nowMs: nowMs() });
      if (!session) return null;
      const creator = await findCreatorById({ table, creatorId: session.creatorId });
      if (!creator) return null;
      const adapterSession: AdapterSession = {
        sessionToken,
        userId: session.creatorId,
        expires: new Date(session.expiresAt * 1000),
      };
      return { session: adapterSession, user: toAdapterUser(creator) };
    },

    async updateSession(session) {
      const tokenHash = hashToken(session.sessionToken);
      const stored = await findSession({ table, tokenHash });
      if (!stored) return null;
      if (!session.expires) {
        return {
          sessionToken: session.sessionToken,
          userId: stored.creatorId,
          expires: new Date(stored.expiresAt * 1000),
        };
      }
      const updated = await updateSessionExpiry({
        table,
        tokenHash,
        creatorId: stored.creatorId,
        expires: session.expires,
      });
      return updated
        ? { sessionToken: session.sessionToken, userId: stored.creatorId, expires: session.expires }
        : null;
    },

    async deleteSession(sessionToken) {
      const tokenHash = hashToken(sessionToken);
      const stored = await findSession({ table, tokenHash });
      if (stored) await deleteSession({ table, tokenHash, creatorId: stored.creatorId });
      return null;
    },

    async createVerificationToken(verificationToken) {
      await createMagicLink({
        table,
        tokenHash: verificationToken.token,
        identifier: verificationToken.identifier,
        expires: verificationToken.expires,
        now: new Date(nowMs()),
      });
      return verificationToken;
    },

    async useVerificationToken({ token }) {
      const result = await consumeMagicLink({ table, tokenHash: token, nowMs: nowMs() });
      // Expired links are deleted too; Auth.js then shows its "Verification" error.
      if (result.status !== "used") return null;
      return {
        identifier: result.link.identifier,
        token,
        expires: new Date(result.link.expiresAt * 1000),
      };
    },
  };
}
