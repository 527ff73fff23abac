/** The HTTP status of a failed S3 call (the SDK's `$metadata`), when it got an answer. */
export function s3StatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** No object under the key (a HEAD's 404 has no body, so no error code either). */
export function isMissingObject(error: unknown): boolean {
  return (
    s3StatusOf(error) === 404 ||
    (error instanceof Error && (error.name === "NoSuchKey" || error.name === "NotFound"))
  );
}

/** S3's answer to a failed `If-Match` (a HEAD's 412 has no body, so no error code either). */
export function isPreconditionFailed(error: unknown): boolean {
  return s3StatusOf(error) === 412 || (error instanceof Error && error.name === "PreconditionFailed");
}
