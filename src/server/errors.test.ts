import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, toAppError, toErrorBody } from "./errors";

describe("toAppError", () => {
  it("keeps an AppError as it is", () => {
    const error = new AppError("not_found", "No such video.");
    expect(toAppError(error)).toBe(error);
    expect(error.httpStatus).toBe(404);
  });

  it("turns a ZodError into 422 naming the field", () => {
    const result = z.object({ sizeBytes: z.number().positive() }).safeParse({ sizeBytes: -1 });
    const error = toAppError(result.error);
    expect(error.code).toBe("validation_failed");
    expect(error.httpStatus).toBe(422);
    expect(error.message).toContain("sizeBytes");
  });

  it("hides the internals of unknown errors", () => {
    const error = toAppError(new Error("ECONNREFUSED 127.0.0.1:8700 secret-table"));
    expect(error.httpStatus).toBe(500);
    expect(JSON.stringify(toErrorBody(error))).not.toContain("secret-table");
  });
});
