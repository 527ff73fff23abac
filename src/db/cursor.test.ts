import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { decodeCursor, encodeCursor } from "./cursor";

const scope = { secret: "s".repeat(32), pk: "CREATOR#cr_A", list: "videos" };
const lastKey = { PK: "CREATOR#cr_A", SK: "ASSET#vid_1" };

describe("cursor", () => {
  it("round-trips the last evaluated key", () => {
    const cursor = encodeCursor(scope, lastKey);
    expect(cursor).not.toBeNull();
    expect(decodeCursor(scope, cursor)).toEqual(lastKey);
  });

  it("is null at the end of a list and absent cursors mean the first page", () => {
    expect(encodeCursor(scope, undefined)).toBeNull();
    expect(decodeCursor(scope, undefined)).toBeUndefined();
    expect(decodeCursor(scope, "")).toBeUndefined();
  });

  it.each([
    ["garbage", "not-a-cursor"],
    ["empty signature", "abc."],
    ["too many parts", "a.b.c"],
    ["oversized", "a".repeat(5000)],
  ])("rejects a malformed cursor (%s) with 400", (_name, cursor) => {
    const error = (() => {
      try {
        decodeCursor(scope, cursor);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).httpStatus).toBe(400);
  });

  it("rejects a cursor whose body was edited to point at another partition", () => {
    const cursor = encodeCursor(scope, lastKey)!;
    const [body, signature] = cursor.split(".");
    const edited = JSON.parse(Buffer.from(body!, "base64url").toString());
    edited.pk = "CREATOR#cr_B";
    edited.key.PK = "CREATOR#cr_B";
    const forged = `${Buffer.from(JSON.stringify(edited)).toString("base64url")}.${signature}`;
    expect(() => decodeCursor({ ...scope, pk: "CREATOR#cr_B" }, forged)).toThrow(AppError);
  });

  it("rejects another creator's genuine cursor, and a cursor from another list", () => {
    const foreign = encodeCursor({ ...scope, pk: "CREATOR#cr_B" }, { PK: "CREATOR#cr_B", SK: "ASSET#vid_9" });
    expect(() => decodeCursor(scope, foreign)).toThrow(AppError);
    const otherList = encodeCursor({ ...scope, list: "clips" }, lastKey);
    expect(() => decodeCursor(scope, otherList)).toThrow(AppError);
  });

  it("rejects a cursor signed with another secret", () => {
    const cursor = encodeCursor({ ...scope, secret: "t".repeat(32) }, lastKey);
    expect(() => decodeCursor(scope, cursor)).toThrow(AppError);
  });
});
