import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, toAppError } from "@/server/errors";
import { readJsonBody } from "./respond";

const Body = z.object({ name: z.string().optional() });
const post = (body: string | undefined, contentType?: string) =>
  new Request("http://localhost/api/x", {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
}

describe("readJsonBody", () => {
  it("reads JSON sent as JSON, and an empty body as {}", async () => {
    expect(await readJsonBody(post('{"name":"a"}', "application/json; charset=utf-8"), Body)).toEqual({
      name: "a",
    });
    expect(await readJsonBody(post('{"name":"b"}', "application/merge-patch+json"), Body)).toEqual({
      name: "b",
    });
    expect(await readJsonBody(post(undefined), Body)).toEqual({});
  });

  it("refuses a body sent as text or a form (what another site's page can send unasked) with 415", async () => {
    expect(await codeOf(readJsonBody(post('{"name":"a"}', "text/plain"), Body))).toBe(
      "unsupported_media_type",
    );
    expect(await codeOf(readJsonBody(post("name=a", "application/x-www-form-urlencoded"), Body))).toBe(
      "unsupported_media_type",
    );
    expect(await codeOf(readJsonBody(post('{"name":"a"}'), Body))).toBe("unsupported_media_type");
  });

  it("says malformed JSON is malformed, and a schema failure names the field", async () => {
    expect(await codeOf(readJsonBody(post("{", "application/json"), Body))).toBe("bad_request");
    const schemaFailure = await readJsonBody(post('{"name":1}', "application/json"), Body).catch(toAppError);
    expect(schemaFailure).toMatchObject({ code: "validation_failed" });
    expect((schemaFailure as AppError).message).toMatch(/^Invalid input: name: /);
  });
});
