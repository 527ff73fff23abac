import { describe, expect, it } from "vitest";
import { buildGeminiPrompt, FULL_TRANSCRIPT_MAX_SECONDS, momentsToRequest } from "./build-gemini-prompt";

const momentOptions = { topN: 5, minSeconds: 15, maxSeconds: 60 };

describe("buildGeminiPrompt", () => {
  it("states the duration, the clip limits and how many clips to find", () => {
    const { instructions, text } = buildGeminiPrompt({ durationSeconds: 754.32, momentOptions });
    expect(instructions).toContain("absolute scale");
    expect(text).toContain("The video is 754.3 seconds (12:34) long.");
    expect(text).toContain("between 0 and 754.32");
    expect(text).toContain("up to 10 clips");
    expect(text).toContain("15 to 60 seconds long");
    // The local analyzer's count for the length (targetChapterCount): one per 2 minutes here.
    expect(text).toContain("chapters: about 6, in order");
    expect(text).toContain("everything said, verbatim");
  });

  it("asks only for the clips' speech on long videos", () => {
    const { text } = buildGeminiPrompt({ durationSeconds: FULL_TRANSCRIPT_MAX_SECONDS + 1, momentOptions });
    expect(text).toContain("inside the clips you chose (not the whole video)");
    expect(text).toContain("(30:01)");
  });

  it("asks a short video for one chapter and a 2½-minute one for three", () => {
    expect(buildGeminiPrompt({ durationSeconds: 90, momentOptions }).text).toContain("chapters: 1, in order");
    expect(buildGeminiPrompt({ durationSeconds: 150, momentOptions }).text).toContain(
      "chapters: about 3, in order",
    );
  });

  it("never asks for more than 20 clips", () => {
    expect(momentsToRequest(1)).toBe(6);
    expect(momentsToRequest(20)).toBe(20);
  });
});
