import { afterEach, describe, expect, it, vi } from "vitest";
import { SIGNED_OUT_MESSAGE } from "@/components/api/page-error-message";
import { ApiError, videoApi } from "./video-api";

afterEach(() => {
  vi.unstubAllGlobals();
});

function answer(status: number, message: string) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ error: { code: "x", message } }, { status })),
  );
}

describe("videoApi errors", () => {
  it("says the page's session ended when the API answers 401, keeping the status and code", async () => {
    answer(401, "Sign in, or send a personal API token as `Authorization: Bearer <token>`.");
    const error = await videoApi.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: "x", message: SIGNED_OUT_MESSAGE });
  });

  it("keeps the API's message for other failures", async () => {
    answer(409, "3 of 44 parts are not uploaded yet (first missing: part 7).");
    await expect(videoApi.complete("vid_x", undefined)).rejects.toMatchObject({
      status: 409,
      message: "3 of 44 parts are not uploaded yet (first missing: part 7).",
    });
  });
});
