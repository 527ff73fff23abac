import { describe, expect, it } from "vitest";
import { reasonBesideTitle } from "./reason-beside-title";

const reasons = (...texts: string[]) => texts.map((text, index) => ({ atSeconds: index, text }));

describe("reasonBesideTitle", () => {
  it("skips a reason that opens with the title, and shows the next one", () => {
    const found = reasonBesideTitle(
      "Loud burst at 6:23",
      reasons(
        "Loud burst at 6:23 (−10 dBFS, 25 dB above the video's median)",
        "Fast cuts: 4 scene changes between 6:20 and 6:31",
      ),
    );
    expect(found?.text).toBe("Fast cuts: 4 scene changes between 6:20 and 6:31");
  });

  it("shows the first reason when it says something else", () => {
    const found = reasonBesideTitle(
      "Talking point at 0:08",
      reasons("Loud burst at 0:10 (−14 dBFS, 34 dB above the video's median)", "Talk covers 80% of the clip"),
    );
    expect(found?.text).toBe("Loud burst at 0:10 (−14 dBFS, 34 dB above the video's median)");
  });

  it("shows nothing when every reason repeats the title", () => {
    expect(reasonBesideTitle("Loud burst at 6:23", reasons("Loud burst at 6:23 (−10 dBFS)"))).toBeUndefined();
    expect(reasonBesideTitle("Quiet stretch from 0:00", [])).toBeUndefined();
  });

  it("ignores case, quotes and punctuation when comparing", () => {
    expect(
      reasonBesideTitle("“So this is the moment…” at 5:10", reasons("so this is the moment at 5:10!")),
    ).toBeUndefined();
  });

  it("treats a reason the title merely extends as a repeat", () => {
    expect(
      reasonBesideTitle("Chat erupts at 1:10 in the finale", reasons("Chat erupts at 1:10")),
    ).toBeUndefined();
  });
});
