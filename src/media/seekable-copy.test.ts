import { copyFile, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { probeMedia } from "./probe";
import { readMediaStdout, runMedia } from "./run-ffmpeg";
import { buildSeekableCopyArgs, ensureSeekableSource, needsSeekableCopy } from "./seekable-copy";

const binaries = resolveMediaBinaries();
let directory = "";
let capturePath = "";

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "truss-seekable-test-"));
  capturePath = path.join(directory, "capture.ts");
  // A stream capture: 12 s of numbered frames, a keyframe every 5 s, its clock at one hour.
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: [
      ...["-hide_banner", "-v", "error", "-y"],
      ...["-f", "lavfi", "-i", "testsrc=s=320x180:r=30:d=12", "-f", "lavfi", "-i", "sine=d=12"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-g", "150", "-c:a", "aac"],
      ...["-output_ts_offset", "3600", "-f", "mpegts", capturePath],
    ],
    timeoutMs: 30_000,
  });
}, 30_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

/** The first frame of `input` from `seconds` on: input seeking, as the engine cuts. */
function frameAt(input: string, seconds: number, accurate = false): Promise<Buffer> {
  const seek = ["-ss", String(seconds)];
  return readMediaStdout({
    binaryPath: binaries.ffmpegPath,
    args: [
      ...["-v", "error"],
      // Output seeking decodes from the start and drops what comes before: slow and exact.
      ...(accurate ? ["-i", input, ...seek] : [...seek, "-i", input]),
      ...["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"],
    ],
    timeoutMs: 30_000,
  });
}

describe("seekable copies", () => {
  it("copies MPEG-TS and MPEG-PS, and nothing that seeks exactly", () => {
    expect(needsSeekableCopy("mpegts")).toBe(true);
    expect(needsSeekableCopy("mpeg")).toBe(true);
    expect(needsSeekableCopy("mov,mp4,m4a,3gp,3g2,mj2")).toBe(false);
    expect(needsSeekableCopy("matroska,webm")).toBe(false);
    expect(buildSeekableCopyArgs({ input: "/in/capture.ts", outputPath: "/work/copy.mkv" })).toEqual([
      ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-i", "file:/in/capture.ts"],
      ...["-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-sn", "-dn", "-f", "matroska", "/work/copy.mkv"],
    ]);
  });

  it("makes a stream capture cut at the frame asked for, its clock starting at zero", async () => {
    const capture = await probeMedia({ binaries, input: capturePath });
    expect(capture.formatName).toBe("mpegts");
    const copyPath = await ensureSeekableSource({
      binaries,
      sourcePath: capturePath,
      formatName: capture.formatName,
      durationSeconds: capture.durationSeconds,
      directory,
    });
    expect(copyPath).not.toBe(capturePath);
    // Not told to delete it: the source (a creator's own file, for the CLI) stays.
    expect(await stat(capturePath).then((stats) => stats.isFile())).toBe(true);
    const copy = await probeMedia({ binaries, input: copyPath });
    expect(copy).toMatchObject({ formatName: "matroska,webm", hasAudio: true, videoCodec: "h264" });
    expect(copy.durationSeconds).toBeCloseTo(capture.durationSeconds, 0);
    // 7 s is between keyframes (0, 5 and 10 s): the copy's cut shows the very frame a full
    // decode reaches at 7 s (testsrc numbers its frames).
    const expected = await frameAt(capturePath, 7, true);
    expect((await frameAt(copyPath, 7)).equals(expected)).toBe(true);
  });

  it("deletes a downloaded source once copied, when told to", async () => {
    const download = path.join(directory, "download.ts");
    await copyFile(capturePath, download);
    const copyDirectory = await mkdtemp(path.join(directory, "copy-"));
    const copyPath = await ensureSeekableSource({
      binaries,
      sourcePath: download,
      formatName: "mpegts",
      durationSeconds: 12,
      directory: copyDirectory,
      deleteSourceOnceCopied: true,
    });
    expect(await stat(copyPath).then((stats) => stats.size > 0)).toBe(true);
    await expect(stat(download)).rejects.toThrow(/ENOENT/);
  });

  it("leaves a source that seeks exactly as it is", async () => {
    const source = "/videos/any.mp4";
    const seekable = await ensureSeekableSource({
      binaries,
      sourcePath: source,
      formatName: "mov,mp4,m4a,3gp,3g2,mj2",
      durationSeconds: 10,
      directory,
    });
    expect(seekable).toBe(source);
  });
});
