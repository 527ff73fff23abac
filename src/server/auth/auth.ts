import "server-only";
import NextAuth from "next-auth";
import { getRuntime } from "@/server/runtime";
import { createAuthConfig } from "./auth-config";

/**
 * The app's Auth.js instance. The config is built lazily (on first request, not at import),
 * so `next build` never parses the environment or touches the data directory.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(() =>
  createAuthConfig({ runtime: getRuntime() }),
);
