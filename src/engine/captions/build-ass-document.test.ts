import { describe, expect, it } from "vitest";
import { buildAssDocument, CAPTION_LAYOUT, fittingFontSizePx, formatAssTime } from "./build-ass-document";
import { estimateTextWidthEm } from "./caption-text-width";

describe("buildAssDocument", () => {
  const document = buildAssDocument({
    cards: [
      { startSeconds: 0, endSeconds: 1.234, text: "Hello {world}" },
      { startSeconds: 61.5, endSeconds: 3723.456, text: "back\\slash" },
    ],
    fontName: "Geist",
  });

  it("declares the 1080×1920 canvas and a bold outlined style in the safe band", () => {
    expect(document).toContain("PlayResX: 1080");
    expect(document).toContain("PlayResY: 1920");
    const style = document.split("\n").find((line) => line.startsWith("Style: "));
    const fields = style?.slice("Style: ".length).split(",") ?? [];
    expect(fields[1]).toBe("Geist");
    expect(fields[7]).toBe("-1"); // bold
    expect(Number(fields[16])).toBeGreaterThanOrEqual(6); // thick outline
    expect(fields[18]).toBe("2"); // bottom centre
    // Baseline clear of the bottom 20% and the right-edge buttons.
    expect(Number(fields[21])).toBeGreaterThan(0.2 * 1920);
    expect(Number(fields[20])).toBeGreaterThan(Number(fields[19]));
    expect(CAPTION_LAYOUT.frameHeight - CAPTION_LAYOUT.marginBottomPx).toBeLessThan(0.8 * 1920);
  });

  it("writes each card on two layers (outlined, then emboldened) with centisecond times and literal text", () => {
    const dialogues = document.split("\n").filter((line) => line.startsWith("Dialogue:"));
    expect(dialogues).toEqual([
      "Dialogue: 0,0:00:00.00,0:00:01.23,Caption,,0,0,0,,{\\fad(60,0)}Hello (world)",
      "Dialogue: 1,0:00:00.00,0:00:01.23,Caption,,0,0,0,,{\\fad(60,0)\\bord2.5\\3c&HFFFFFF&\\shad0}Hello (world)",
      "Dialogue: 0,0:01:01.50,1:02:03.46,Caption,,0,0,0,,{\\fad(60,0)}back∖slash",
      "Dialogue: 1,0:01:01.50,1:02:03.46,Caption,,0,0,0,,{\\fad(60,0)\\bord2.5\\3c&HFFFFFF&\\shad0}back∖slash",
    ]);
  });

  it("leaves out emoji, which libass would burn in as empty boxes, and keeps © and ™", () => {
    const withEmoji = buildAssDocument({
      cards: [
        { startSeconds: 0, endSeconds: 1, text: "Let's go 🎉🔥 👍🏽 🇫🇷 family 👨‍👩‍👧 ❤️ Truss™ © 2026" },
      ],
      fontName: "Geist",
    });
    const first = withEmoji.split("\n").find((line) => line.startsWith("Dialogue: 0,"));
    expect(first).toBe(
      "Dialogue: 0,0:00:00.00,0:00:01.00,Caption,,0,0,0,,{\\fad(60,0)}Let's go family Truss™ © 2026",
    );
  });

  it("formats ASS times", () => {
    expect(formatAssTime(0)).toBe("0:00:00.00");
    expect(formatAssTime(59.999)).toBe("0:01:00.00");
    expect(formatAssTime(-1)).toBe("0:00:00.00");
  });
  it("shrinks a card whose word is too wide for the band between the margins (libass breaks only at spaces)", () => {
    const band = CAPTION_LAYOUT.frameWidth - CAPTION_LAYOUT.marginLeftPx - CAPTION_LAYOUT.marginRightPx;
    const sizes = (text: string) => {
      const line = buildAssDocument({ cards: [{ startSeconds: 0, endSeconds: 1, text }], fontName: "Geist" })
        .split("\n")
        .find((candidate) => candidate.startsWith("Dialogue: 0,"));
      return /\\fs(\d+)/.exec(line ?? "")?.[1];
    };
    // Everyday cards keep the style's size: no override at all.
    expect(sizes("happened in the")).toBeUndefined();
    expect(sizes("Extraordinarily")).toBeUndefined();
    expect(fittingFontSizePx("MMMM MMMM MMMM")).toBe(CAPTION_LAYOUT.fontSizePx);
    // Measured: at 116 px these ran off both edges of the 1080-px frame.
    for (const text of ["Supercalifragilisticexpialidocious", "WWWWWWWWWWWWWWWW", "これは日本語の字"]) {
      const size = Number(sizes(text));
      expect(size).toBeLessThan(CAPTION_LAYOUT.fontSizePx);
      expect(size).toBe(fittingFontSizePx(text));
      expect(estimateTextWidthEm(text) * size).toBeLessThanOrEqual(band);
    }
    // No smaller than a phone can read, however long the word.
    expect(fittingFontSizePx("x".repeat(200))).toBe(48);
  });
});
