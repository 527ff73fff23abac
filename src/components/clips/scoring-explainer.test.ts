import { describe, expect, it } from "vitest";
import { DEFAULT_SCORING_WEIGHTS } from "@/engine/scoring/weights";
import { weightShares } from "./scoring-explainer";

describe("weightShares", () => {
  it("gives each sub-score its share of the score, in percent", () => {
    expect(weightShares(DEFAULT_SCORING_WEIGHTS).map(({ label, percent }) => [label, percent])).toEqual([
      ["Hook", 25],
      ["Audio energy", 20],
      ["Visual dynamics", 20],
      ["Speech", 20],
      ["Chat", 15],
    ]);
  });

  it("follows configured weights, leaving out those at zero", () => {
    const shares = weightShares({ hook: 1, audioEnergy: 1, visualDynamics: 0, speech: 2, chat: 0 });
    expect(shares.map(({ label, percent }) => [label, percent])).toEqual([
      ["Hook", 25],
      ["Audio energy", 25],
      ["Speech", 50],
    ]);
  });
});
