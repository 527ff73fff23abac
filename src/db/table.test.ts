import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toAppError, toErrorBody } from "@/server/errors";
import { parseStoredItem } from "./table";

const ClipStatus = z.object({ status: z.enum(["PENDING", "READY"]) });

describe("parseStoredItem", () => {
  it("returns the item as its schema reads it", () => {
    expect(parseStoredItem(ClipStatus, { PK: "CREATOR#c", SK: "CLIP#a", status: "READY" })).toEqual({
      status: "READY",
    });
  });

  it("reports a stored item that fails its schema as our error (500), not the caller's (422)", () => {
    let thrown: unknown;
    try {
      parseStoredItem(ClipStatus, { PK: "CREATOR#c", SK: "CLIP#a", status: "WEIRD" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe("Stored item CREATOR#c CLIP#a failed its schema");
    const appError = toAppError(thrown);
    expect(appError.httpStatus).toBe(500);
    expect(JSON.stringify(toErrorBody(appError))).not.toContain("status");
  });
});
