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
