import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildAssDocument } from "@/engine/captions/build-ass-document";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";
import { escapeFilterValue } from "./escape-filter-value";

const { ffmpegPath } = resolveMediaBinaries();

describe("escapeFilterValue with a real ffmpeg", () => {
  it("lets the subtitles filter open a file whose path has : , ' [ ] ; in it", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "truss-escape-test-"));
    try {
      const awkward = path.join(directory, "we:ird, o'dd [dir];");
      await mkdir(awkward);
      const assPath = path.join(awkward, "captions.ass");
      await writeFile(
        assPath,
        buildAssDocument({ cards: [{ startSeconds: 0, endSeconds: 1, text: "hi" }], fontName: "Sans" }),
      );
      const subtitlesFrom = (filenameValue: string) =>
        runMedia({
          binaryPath: ffmpegPath,
          args: [
            ...["-v", "error", "-f", "lavfi", "-i", "color=size=108x192:duration=0.2"],
            ...["-vf", `subtitles=filename=${filenameValue}`, "-f", "null", "-"],
          ],
          timeoutMs: 20_000,
        });
      await subtitlesFrom(escapeFilterValue(assPath));
      // The same path unescaped breaks the filtergraph: the test can tell the difference.
      await expect(subtitlesFrom(assPath)).rejects.toThrow();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
