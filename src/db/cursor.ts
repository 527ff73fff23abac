import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/server/errors";

/**
 * Pagination cursors are opaque to clients: the DynamoDB `LastEvaluatedKey`, bound to the
 * partition and list it came from, and authenticated with an HMAC. A cursor edited, forged, or
 * taken from another creator's listing is rejected with 400, never used to read.
 */

const CursorPayload = z.object({
  v: z.literal(1),
  pk: z.string(),
  list: z.string(),
  key: z.record(z.string(), z.union([z.string(), z.number()])),
});

type CursorPayload = z.infer<typeof CursorPayload>;

export type CursorScope = { secret: string; pk: string; list: string };

function sign(secret: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`truss-cursor:${body}`).digest();
}

export function encodeCursor(
  scope: CursorScope,
  lastEvaluatedKey: Record<string, unknown> | undefined,
): string | null {
  if (!lastEvaluatedKey) return null;
  const key = Object.fromEntries(
    Object.entries(lastEvaluatedKey).filter(
      ([, value]) => typeof value === "string" || typeof value === "number",
    ),
  ) as Record<string, string | number>;
  const payload: CursorPayload = { v: 1, pk: scope.pk, list: scope.list, key };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${sign(scope.secret, body).toString("base64url")}`;
}

const MAX_CURSOR_LENGTH = 2048;

export function decodeCursor(
  scope: CursorScope,
  cursor: string | null | undefined,
): Record<string, string | number> | undefined {
  if (cursor === null || cursor === undefined || cursor === "") return undefined;
  const invalid = () =>
    new AppError("bad_request", "The cursor is not valid for this list. Start again from the first page.");
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalid();
  const [body, signature, extra] = cursor.split(".");
  if (!body || !signature || extra !== undefined) throw invalid();
  const expected = sign(scope.secret, body);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let payload: CursorPayload;
  try {
    payload = CursorPayload.parse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
  } catch {
    throw invalid();
  }
  // Signed by us, but for another partition or list: never let it steer a Query elsewhere.
  if (payload.pk !== scope.pk || payload.list !== scope.list || payload.key.PK !== scope.pk) throw invalid();
  return payload.key;
}
