import { isPreconditionFailed } from "./s3-errors";

/**
 * A read conditional on an ETag (`If-Match`) found another object under the key: S3 answered
 * 412 PreconditionFailed. Retrying reads the same other object, so callers treat it as final.
 */
export class ObjectChangedError extends Error {
  constructor(
    readonly key: string,
    options: { cause?: unknown } = {},
  ) {
    super(`Object ${key} is no longer the one expected (its ETag changed)`, options);
    this.name = "ObjectChangedError";
  }
}

/**
 * What a failed read should throw: ObjectChangedError when it was conditional on `ifMatch` and
 * S3 refused it for that, else the error itself.
 */
export function changedObjectOr(error: unknown, key: string, ifMatch: string | null | undefined): unknown {
  return ifMatch && isPreconditionFailed(error) ? new ObjectChangedError(key, { cause: error }) : error;
}
