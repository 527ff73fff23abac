import { describe, expect, it } from "vitest";
import { pageErrorMessage, SIGNED_OUT_MESSAGE } from "./page-error-message";

describe("pageErrorMessage", () => {
  it("tells a creator whose session ended to sign in again, not to send an API token", () => {
    const apiMessage = "Sign in, or send a personal API token as `Authorization: Bearer <token>`.";
    expect(pageErrorMessage(401, apiMessage)).toBe(SIGNED_OUT_MESSAGE);
    expect(SIGNED_OUT_MESSAGE).not.toMatch(/token/i);
  });

  it("shows any other answer's message as the API wrote it, or says the request failed", () => {
    expect(pageErrorMessage(409, "Clips can be deleted once the video is ready.")).toBe(
      "Clips can be deleted once the video is ready.",
    );
    expect(pageErrorMessage(502, undefined)).toBe("The request failed (502). Please try again.");
  });
});
