import { createHash } from "node:crypto";

/**
 * What the table stores in place of a secret token: its SHA-256, hex. The tokens are 256-bit
 * random values, so an unsalted hash is enough to make a leaked table useless for signing in
 * while keeping lookup a single GetItem by key.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
