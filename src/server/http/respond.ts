import type { z } from "zod";
import { AppError, toAppError, toErrorBody } from "@/server/errors";

/** JSON bodies above this are refused before parsing (uploads never pass through the app). */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

export function jsonResponse(data: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(data, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** A 302 that no cache keeps: the target is a short-lived signed URL, fresh on every request. */
export function redirectResponse(location: string): Response {
  return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
}

/** A 303 to a page of this site: the answer to a form POST, or a GET moved to a page. Never cached. */
export function seeOtherResponse(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path, "cache-control": "no-store" } });
}

/** The only place an error becomes an HTTP response. Internal errors are logged, not shown. */
export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  if (appError.code === "internal") console.error("[truss] unhandled error:", error);
  const headers: Record<string, string> = {};
  if (appError.retryAfterSeconds !== undefined)
    headers["retry-after"] = String(Math.ceil(appError.retryAfterSeconds));
  return jsonResponse(toErrorBody(appError), appError.httpStatus, headers);
}

/** Reads and validates a JSON body; size is checked on the bytes, not the declared length. */
export async function readJsonBody<T>(
  request: Request,
  schema: z.ZodType<T>,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<T> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes)
    throw new AppError("payload_too_large", `The request body is over ${maxBytes} bytes.`);
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel();
        throw new AppError("payload_too_large", `The request body is over ${maxBytes} bytes.`);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  // JSON only as JSON: a body sent as a form or as text/plain is what a page on another site can
  // send without asking first (the Origin check is the first line; this is the second).
  if (text.length > 0 && !isJsonContentType(request.headers.get("content-type"))) {
    throw new AppError(
      "unsupported_media_type",
      "Send the request body as JSON, with the header Content-Type: application/json.",
    );
  }
  let parsed: unknown;
  try {
    parsed = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  return schema.parse(parsed);
}

function isJsonContentType(header: string | null): boolean {
  const mediaType = header?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

/** Wraps a route handler so every thrown error becomes the standard error body. */
export function handleErrors<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args: Args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
