import { describe, expect, it } from "vitest";
import { buildCaptionCards } from "./build-caption-cards";

describe("buildCaptionCards", () => {
  it("splits a segment into cards of at most three words, sharing its time by length", () => {
    const cards = buildCaptionCards({
      segments: [{ startSeconds: 10, endSeconds: 13, text: "one two three four five six" }],
      clipStartSeconds: 10,
      clipEndSeconds: 20,
    });
    expect(cards.map((card) => card.text)).toEqual(["one two three", "four five six"]);
    expect(cards[0]?.startSeconds).toBe(0);
    expect(cards.at(-1)?.endSeconds).toBeCloseTo(3, 6);
    // Contiguous: each card starts where the previous one ended.
    expect(cards[1]?.startSeconds).toBeCloseTo(cards[0]?.endSeconds ?? -1, 6);
    for (const card of cards) expect(card.text.split(" ").length).toBeLessThanOrEqual(3);
  });

  it("ends a card at punctuation and at the character limit", () => {
    const cards = buildCaptionCards({
      segments: [{ startSeconds: 0, endSeconds: 4, text: "Wait, what? Extraordinarily long words" }],
      clipStartSeconds: 0,
      clipEndSeconds: 4,
      maxCharsPerCard: 16,
    });
    expect(cards.map((card) => card.text)).toEqual(["Wait,", "what?", "Extraordinarily", "long words"]);
  });

  it("re-times cards to the clip, trims the edges and drops cards outside it", () => {
    const cards = buildCaptionCards({
      segments: [
        { startSeconds: 0, endSeconds: 4, text: "before the clip" },
        { startSeconds: 9, endSeconds: 11, text: "straddles start" },
        { startSeconds: 12, endSeconds: 13, text: "inside" },
        { startSeconds: 19.5, endSeconds: 21, text: "straddles end" },
        { startSeconds: 30, endSeconds: 31, text: "after" },
      ],
      clipStartSeconds: 10,
      clipEndSeconds: 20,
    });
    expect(cards.map((card) => card.text)).toEqual(["straddles start", "inside", "straddles end"]);
    expect(cards[0]).toMatchObject({ startSeconds: 0, endSeconds: 1 });
    expect(cards[1]).toMatchObject({ startSeconds: 2, endSeconds: 3 });
    expect(cards[2]).toMatchObject({ startSeconds: 9.5, endSeconds: 10 });
  });
  it("breaks Japanese and Chinese, written without spaces, between characters, punctuation kept with its character", () => {
    const cards = buildCaptionCards({
      segments: [
        { startSeconds: 0, endSeconds: 4, text: "これは日本語の字幕です。昨日の「決勝戦」を見ましたか？" },
        { startSeconds: 4, endSeconds: 6, text: "中文字幕测试，你好世界" },
      ],
      clipStartSeconds: 0,
      clipEndSeconds: 6,
    });
    // At most 16 half-width units: eight CJK characters a card, none starting with 。、？」.
    expect(cards.map((card) => card.text)).toEqual([
      "これは日本語の字",
      "幕です。",
      "昨日の「決勝戦」",
      "を見ましたか？",
      "中文字幕测试，",
      "你好世界",
    ]);
    for (const card of cards) expect(card.text).not.toMatch(/^[。、，？」]/u);
  });

  it("keeps a Latin word inside Japanese whole, and counts a CJK character as two", () => {
    const cards = buildCaptionCards({
      segments: [{ startSeconds: 0, endSeconds: 2, text: "LINEで連絡してください" }],
      clipStartSeconds: 0,
      clipEndSeconds: 2,
    });
    expect(cards.map((card) => card.text)).toEqual(["LINEで連絡してく", "ださい"]);
  });
});
