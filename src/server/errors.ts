import { ZodError } from "zod";

/**
 * The one error type of the domain. A code says what went wrong in terms a caller can act
 * on; `HTTP_STATUS_BY_CODE` is the only place codes become HTTP statuses.
 */
export const ERROR_CODES = [
  "bad_request", // malformed input that is not a schema failure (bad cursor, bad JSON)
  "validation_failed", // input failed its schema; message lists the fields
  "unauthorized", // no valid session or API token
  "forbidden", // authenticated, but not allowed
  "not_found", // no such item for this creator (also used for other creators' items)
  "conflict", // the item is not in the state the request expects (status, version)
  "payload_too_large", // body or declared file size over the limit
  "unsupported_media_type", // file type we do not accept
  "rate_limited", // too many requests; `retryAfterSeconds` says when to come back
  "unavailable", // a dependency (table, bucket, queue) does not answer
  "internal", // a bug; the message is generic and details go to the log only
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}

/**
 * A conditional write that found its item deleted (`not_found`) or changed by another writer
 * (`conflict`): someone else moved it on, so the writer has nothing left to do with it.
 */
export function isGoneOrChanged(error: unknown): error is AppError {
  return error instanceof AppError && (error.code === "not_found" || error.code === "conflict");
}

export type ErrorBody = { error: { code: ErrorCode; message: string } };

/** Any thrown value → the AppError a client may see. Unknown errors never leak details. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    const fields = error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
      .join("; ");
    return new AppError("validation_failed", `Invalid input: ${fields}`, { cause: error });
  }
  return new AppError("internal", "Something went wrong on our side.", { cause: error });
}

export function toErrorBody(error: AppError): ErrorBody {
  return { error: { code: error.code, message: error.message } };
}
