import { describe, expect, it } from "vitest";
import { estimateTextWidthEm, splitAtLineBreaks, textUnits } from "./caption-text-width";

describe("estimateTextWidthEm", () => {
  it("rates broad letters above capitals above lower case above slim ones, a CJK character at one em", () => {
    const perLetter = (letter: string) => estimateTextWidthEm(letter.repeat(10)) / 10;
    expect(perLetter("W")).toBeGreaterThan(perLetter("A"));
    expect(perLetter("A")).toBeGreaterThan(perLetter("a"));
    expect(perLetter("a")).toBeGreaterThan(perLetter("i"));
    expect(perLetter("字")).toBe(1);
    expect(estimateTextWidthEm("")).toBe(0);
  });
});

describe("splitAtLineBreaks", () => {
  it("keeps a word of a spaced script whole", () => {
    expect(splitAtLineBreaks("Supercalifragilistic")).toEqual(["Supercalifragilistic"]);
    expect(splitAtLineBreaks("مرحبا")).toEqual(["مرحبا"]);
    expect(splitAtLineBreaks("한국어")).toEqual(["한국어"]);
  });

  it("breaks kana and ideographs apart, small kana and closers with the one before, openers with the one after", () => {
    expect(splitAtLineBreaks("「ちょっと」。")).toEqual(["「ちょっ", "と」。"]);
    expect(splitAtLineBreaks("コーヒー2杯")).toEqual(["コー", "ヒー", "2", "杯"]);
  });
});

describe("textUnits", () => {
  it("counts full-width characters as two", () => {
    expect(textUnits("ab")).toBe(2);
    expect(textUnits("日本")).toBe(4);
    expect(textUnits("ＡＢ")).toBe(4);
  });
});
