import "server-only";
import { randomBytes } from "node:crypto";
import type { NextAuthConfig } from "next-auth";
import type { EmailConfig } from "next-auth/providers";
import { type Runtime, tableOf } from "@/server/runtime";
import { DEFAULT_AFTER_SIGN_IN_PATH, toSafeCallbackPath } from "./callback-url";
import { normalizeEmail } from "./normalize-email";
import { sendMagicLink } from "./send-magic-link";
import { AUTH_BASE_PATH, EMAIL_PROVIDER_ID, SIGN_IN_ERROR_PATH } from "./sign-in-link";
import { SESSION_UPDATE_AGE_SECONDS, sessionMaxAgeSeconds } from "./slide-session";
import { createTableAdapter } from "./table-adapter";

/**
 * The Auth.js configuration, built from a runtime so tests can point it at the test table
 * and move its clock (`nowMs`) to check expiry without waiting.
 *
 * Sessions are database sessions (see docs/auth.md): the cookie holds a random token, the
 * table its hash, so signing out — one session or all of them — takes effect immediately.
 */
export function createAuthConfig(options: { runtime: Runtime; nowMs?: () => number }): NextAuthConfig {
  const { config } = options.runtime;
  const emailProvider: EmailConfig = {
    id: EMAIL_PROVIDER_ID,
    type: "email",
    name: "Email",
    from: config.mail.from,
    maxAge: config.auth.magicLinkTtlMinutes * 60,
    normalizeIdentifier: normalizeEmail,
    // 256 random bits; Auth.js stores only SHA-256(token + secret) through the adapter.
    generateVerificationToken: () => randomBytes(32).toString("base64url"),
    sendVerificationRequest: ({ identifier, url }) => sendMagicLink({ config, to: identifier, url }),
  };
  return {
    secret: config.auth.secret,
    trustHost: true,
    basePath: AUTH_BASE_PATH,
    adapter: createTableAdapter({ table: tableOf(options.runtime), nowMs: options.nowMs }),
    providers: [emailProvider],
    session: {
      strategy: "database",
      // The same lifetimes the proxy slides sessions by (see slide-session.ts).
      maxAge: sessionMaxAgeSeconds(config),
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      generateSessionToken: () => randomBytes(32).toString("base64url"),
    },
    pages: { signIn: "/login", verifyRequest: "/login", error: SIGN_IN_ERROR_PATH, signOut: "/login" },
    callbacks: {
      // Only our own origin: any other target becomes the dashboard.
      redirect({ url, baseUrl }) {
        return `${baseUrl}${toSafeCallbackPath(url, baseUrl) ?? DEFAULT_AFTER_SIGN_IN_PATH}`;
      },
    },
    logger: {
      error(error) {
        // A used or expired link is an everyday event with its own page, not a server fault.
        const type = (error as { type?: string }).type;
        if (type === "Verification") console.warn("[auth] sign-in link was used, expired or unknown");
        else console.error("[auth]", error);
      },
      warn(code) {
        console.warn("[auth] warning:", code);
      },
      debug() {},
    },
  };
}
