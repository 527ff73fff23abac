import { randomBytes } from "node:crypto";

/**
 * Personal API tokens look like `truss_<43 base64url chars>`: the prefix makes a leaked
 * token recognisable (secret scanners, logs), the rest is 256 random bits.
 */
export const API_TOKEN_PREFIX = "truss_";
const API_TOKEN_PATTERN = /^truss_[A-Za-z0-9_-]{43}$/;

export function generateApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function looksLikeApiToken(value: string): boolean {
  return API_TOKEN_PATTERN.test(value);
}

/** What Settings shows to tell tokens apart without revealing them. */
export function displayPrefixOf(token: string): string {
  return `${token.slice(0, API_TOKEN_PREFIX.length + 4)}…`;
}

/** The token from `Authorization: Bearer <token>`; undefined when there is no such header. */
export function readBearerToken(authorization: string | null | undefined): string | null | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}
