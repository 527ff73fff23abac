import "server-only";
import { AppError } from "@/server/errors";
import type { CreatorContext } from "../with-creator";

/**
 * Tokens are created, renamed and revoked while signed in (Settings), never with a token: a
 * leaked token must not mint its own replacement, nor rename or revoke the creator's others.
 */
export function assertSessionForTokenManagement(via: CreatorContext["via"]): void {
  if (via !== "session") throw new AppError("forbidden", "Manage API tokens from Settings while signed in.");
}
