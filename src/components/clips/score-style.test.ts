import { describe, expect, it } from "vitest";
import { SUBSCORE_LABELS } from "./score-style";

/** The hints say what the engine measures (src/engine/scoring/score-moment.ts), not more. */
describe("SUBSCORE_LABELS", () => {
  it("says the speech score counts speech only: loud music or noise scores 0 there", () => {
    expect(SUBSCORE_LABELS.speech.hint).toBe(
      "How much of the clip is speech; music and other sounds do not count",
    );
  });

  it("says audio energy is about rising above the video's usual level, not loudness alone", () => {
    expect(SUBSCORE_LABELS.audioEnergy.hint).toBe(
      "How loud the clip is, and how far it rises above the rest of the video",
    );
  });

  it("says the hook looks at the first 3 seconds and how the clip opens", () => {
    expect(SUBSCORE_LABELS.hook.hint).toBe(
      "How much happens in the first 3 s, and whether it opens on a cut or a jump in sound",
    );
  });
});
