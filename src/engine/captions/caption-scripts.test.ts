import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeFilterValue } from "@/media/escape-filter-value";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";
import { buildAssDocument } from "./build-ass-document";
import { findCaptionFont } from "./find-caption-font";

/**
 * The captions' font (Geist) has Latin, Greek and Cyrillic only; libass finds every other
 * character in the machine's fonts through fontconfig, and draws an empty box where none has
 * it. Debian's fonts-noto-cjk (installed by `.ci/run`, listed in the README) covers Japanese,
 * Chinese and Korean, DejaVu Arabic and Hebrew. libass says, at ffmpeg's verbose level, which
 * characters it could not find in any font.
 */
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-caption-scripts-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The characters of `text` that libass drew as an empty box, each once. */
async function charactersWithoutAFont(text: string): Promise<string[]> {
  const font = findCaptionFont();
  const fontsDirectory = path.join(directory, "fonts");
  await mkdir(fontsDirectory, { recursive: true });
  if (font.fontPath) await copyFile(font.fontPath, path.join(fontsDirectory, path.basename(font.fontPath)));
  const assPath = path.join(directory, "captions.ass");
  await writeFile(
    assPath,
    buildAssDocument({ cards: [{ startSeconds: 0, endSeconds: 1, text }], fontName: font.fontName }),
  );
  const missing = new Set<string>();
  await runMedia({
    binaryPath: resolveMediaBinaries().ffmpegPath,
    args: [
      ...["-v", "verbose", "-f", "lavfi", "-i", "color=c=gray:s=1080x1920:d=0.2"],
      ...[
        "-vf",
        `subtitles=filename=${escapeFilterValue(assPath)}:fontsdir=${escapeFilterValue(fontsDirectory)}`,
      ],
      ...["-frames:v", "1", "-f", "null", "-"],
    ],
    timeoutMs: 30_000,
    onStderrLine: (line) => {
      const codePoint = /failed to find any fallback with glyph 0x([0-9A-F]+)/i.exec(line)?.[1];
      if (codePoint) missing.add(String.fromCodePoint(Number.parseInt(codePoint, 16)));
    },
  });
  return [...missing];
}

describe("caption scripts", () => {
  it("finds a font for Japanese, Chinese, Korean, Arabic, Hebrew, Cyrillic and Greek", async () => {
    expect(await charactersWithoutAFont("日本語の字幕 中文字幕 한국어 자막")).toEqual([]);
    expect(await charactersWithoutAFont("مرحبا שלום Привет Γειά")).toEqual([]);
  }, 60_000);

  it("notices a character no font has (the check itself works)", async () => {
    // Egyptian hieroglyphs: no font Truss asks for draws them.
    expect(await charactersWithoutAFont("a\u{13080}b")).toEqual(["\u{13080}"]);
  }, 60_000);
});
