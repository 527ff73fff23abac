import { createReadStream } from "node:fs";
import {
  access,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCORING_WEIGHTS } from "@/engine/scoring/weights";
import { generateSyntheticVideo, ONE_LOUD_BURST_MINUTE } from "@/engine/testing/synthetic-video";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";
import { lineOutput } from "./cli-output";
import { type ClipReport, parseClipArgs, runClipCommand, UsageError } from "./clip-command";

const binaries = resolveMediaBinaries();
let directory = "";
let videoPath = "";
let server: Server;
let baseUrl = "";
const quiet = lineOutput(() => undefined);

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "truss-cli-test-"));
  videoPath = path.join(directory, "planted.mp4");
  await generateSyntheticVideo({
    binaries,
    outputPath: videoPath,
    plan: ONE_LOUD_BURST_MINUTE,
  });
  server = createServer((request, response) => {
    if (request.url !== "/videos/planted.mp4") {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": "video/mp4" });
    createReadStream(videoPath).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe("parseClipArgs", () => {
  it("reads the documented options", () => {
    expect(
      parseClipArgs([
        "in.mp4",
        "--out",
        "clips",
        "--top=3",
        "--min-seconds",
        "10",
        "--max-seconds",
        "30",
        "--mode",
        "full",
        "--layout",
        "facecam",
        "--weights",
        "hook=0.5,chat=0",
      ]),
    ).toEqual({
      input: "in.mp4",
      outDir: "clips",
      topN: 3,
      minSeconds: 10,
      maxSeconds: 30,
      weights: { ...DEFAULT_SCORING_WEIGHTS, hook: 0.5, chat: 0 },
      mode: "full",
      captionsPath: null,
      layoutChoice: "facecam",
      render: true,
      verbose: false,
    });
  });

  it("fills the defaults", () => {
    expect(parseClipArgs(["https://example.com/v.mp4", "--out", "o", "--no-render"])).toMatchObject({
      topN: 5,
      minSeconds: 15,
      maxSeconds: 60,
      weights: DEFAULT_SCORING_WEIGHTS,
      layoutChoice: "auto",
      render: false,
      verbose: false,
    });
    expect(parseClipArgs(["in.mp4", "--out", "o", "--verbose"]).verbose).toBe(true);
    expect(() => parseClipArgs(["in.mp4", "--out", "o", "--verbose=1"])).toThrow(/--verbose takes no value/);
  });

  it.each([
    [["in.mp4"], /--out <dir> is required/],
    [["--out", "o"], /exactly one video/],
    [["a.mp4", "b.mp4", "--out", "o"], /exactly one video/],
    [["in.mp4", "--out", "o", "--top", "21"], /--top must be between 1 and 20/],
    [["in.mp4", "--out", "o", "--top", "2.5"], /whole number/],
    // Number() reads these as 3, 10, 0 and 0: strict decimals only.
    [["in.mp4", "--out", "o", "--top", "0x3"], /--top must be a whole number from 1 to 20, not "0x3"/],
    [["in.mp4", "--out", "o", "--top", "1e1"], /--top must be a whole number from 1 to 20, not "1e1"/],
    [["in.mp4", "--out", "o", "--top", ""], /--top needs a value/],
    [["in.mp4", "--out", "o", "--top="], /--top needs a value/],
    [["in.mp4", "--out", "o", "--min-seconds", " 5"], /--min-seconds must be a number of seconds/],
    [["in.mp4", "--out", "o", "--min-seconds", "1"], /--min-seconds must be between 3 and 180 seconds/],
    [["in.mp4", "--out", "o", "--max-seconds", "600"], /--max-seconds must be between 3 and 180 seconds/],
    [["in.mp4", "--out", "o", "-x"], /Unknown option -x/],
    [
      ["in.mp4", "--out", "o", "--max-seconds", "10"],
      /--max-seconds 10 is below the default --min-seconds of 15/,
    ],
    [
      ["in.mp4", "--out", "o", "--min-seconds", "40", "--max-seconds", "20"],
      /--max-seconds must be at least --min-seconds/,
    ],
    [["in.mp4", "--out", "o", "--mode", "slow"], /fast or full/],
    [
      ["in.mp4", "--out", "o", "--weights", "hype=1"],
      /--weights: "hype" is not a sub-score; the names are hook,/,
    ],
    [["in.mp4", "--out", "o", "--layout", "square"], /--layout must be one of auto, crop, fit, facecam/],
    [["in.mp4", "--out", "o", "--colour", "red"], /Unknown option --colour/],
    [["in.mp4", "--out"], /--out needs a value/],
    [["ftp://host/in.mp4", "--out", "o"], /Only http\(s\) URLs/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseClipArgs(argv)).toThrow(UsageError);
    expect(() => parseClipArgs(argv)).toThrow(message);
  });

  it('takes what follows "--" as the video, even a name starting with "-"', () => {
    expect(parseClipArgs(["--out", "o", "--", "-take-2.mp4"]).input).toBe("-take-2.mp4");
  });
});

describe("runClipCommand", () => {
  it("analyses a file and writes report.json without rendering", async () => {
    const outDir = path.join(directory, "analysis-only");
    const lines: string[] = [];
    const report = await runClipCommand(
      { ...parseClipArgs([videoPath, "--out", outDir, "--top", "2", "--no-render"]) },
      { binaries, output: lineOutput((line) => lines.push(line)) },
    );
    const written = JSON.parse(await readFile(path.join(outDir, "report.json"), "utf8")) as ClipReport;
    expect(written).toEqual(report);
    expect(report.source).toMatchObject({ durationSeconds: 60, width: 320, height: 180, hasAudio: true });
    // Two asked for, one event planted: the rest is background, and no clip is padded with it.
    expect(report.clips).toHaveLength(1);
    expect(report.clips[0]).toMatchObject({ rank: 1, startSeconds: expect.closeTo(15, 0), file: null });
    expect(report.clips[0]?.endSeconds).toBeCloseTo(32, 0);
    expect(report.clips[0]?.reasons[0]).toEqual({
      atSeconds: expect.any(Number),
      text: expect.stringMatching(/^Loud burst at 0:1[5-6]/),
    });
    expect(report.chapters[0]?.startSeconds).toBe(0);
    expect(report.youtubeChapters.startsWith("00:00 ")).toBe(true);
    expect(report.timings.signalsSeconds).toBeGreaterThan(0);
    expect(report.timings.downloadSeconds).toBeNull();
    expect(lines.some((line) => /Measuring sound and motion \(fast\): 100%/.test(line))).toBe(true);
  }, 60_000);

  it("scores with the weights given", async () => {
    const analyse = async (name: string, extra: string[]) =>
      runClipCommand(
        parseClipArgs([videoPath, "--out", path.join(directory, name), "--no-render", ...extra]),
        {
          binaries,
          output: quiet,
        },
      );
    const loudnessOnly = await analyse("loudness-only", [
      "--weights",
      "audioEnergy=1,hook=0,visualDynamics=0,speech=0,chat=0",
    ]);
    const byDefault = await analyse("default-weights", []);
    const [clip] = loudnessOnly.clips;
    expect(clip?.score).toBe(clip?.subscores.audioEnergy);
    expect(byDefault.clips[0]?.subscores).toEqual(clip?.subscores);
    expect(byDefault.clips[0]?.score).not.toBe(clip?.score);
  }, 60_000);

  it("clips a stream capture (MPEG-TS, its clock at one hour) from a seekable copy", async () => {
    const capturePath = path.join(directory, "capture.ts");
    await runMedia({
      binaryPath: binaries.ffmpegPath,
      args: ["-v", "error", "-y", "-i", videoPath, "-c", "copy", "-output_ts_offset", "3600", capturePath],
      timeoutMs: 30_000,
    });
    const cliTemps = async () =>
      (await readdir(tmpdir())).filter(
        (name) => name.startsWith("truss-cli-") && !name.startsWith("truss-cli-test-"),
      );
    const tempsBefore = await cliTemps();
    const outDir = path.join(directory, "capture");
    const lines: string[] = [];
    const report = await runClipCommand(
      parseClipArgs([capturePath, "--out", outDir, "--top", "1", "--no-render"]),
      { binaries, output: lineOutput((line) => lines.push(line)) },
    );
    expect(lines).toContain("Copying the mpegts stream into Matroska, which can be cut exactly…");
    expect(report.source).toMatchObject({ formatName: "mpegts", durationSeconds: expect.closeTo(60, 0) });
    // The same moment as in the MP4 it was made from, on the video's own clock.
    expect(report.clips[0]?.startSeconds).toBeCloseTo(15, 0);
    expect(report.clips[0]?.endSeconds).toBeCloseTo(32, 0);
    // The copy went with its temporary directory.
    expect(await cliTemps()).toEqual(tempsBefore);
  }, 60_000);

  it("downloads a URL to a temporary file first and removes it afterwards", async () => {
    const before = (await readdir(tmpdir())).filter(
      (name) => name.startsWith("truss-cli-") && !name.startsWith("truss-cli-test-"),
    );
    const report = await runClipCommand(
      parseClipArgs([
        `${baseUrl}/videos/planted.mp4`,
        "--out",
        path.join(directory, "from-url"),
        "--top",
        "1",
        "--no-render",
      ]),
      { binaries, output: quiet },
    );
    expect(report.timings.downloadSeconds).not.toBeNull();
    expect(report.clips).toHaveLength(1);
    const after = (await readdir(tmpdir())).filter(
      (name) => name.startsWith("truss-cli-") && !name.startsWith("truss-cli-test-"),
    );
    expect(after).toEqual(before);
  }, 60_000);

  it("says so when a URL cannot be downloaded", async () => {
    await expect(
      runClipCommand(
        parseClipArgs([`${baseUrl}/missing.mp4`, "--out", path.join(directory, "x"), "--no-render"]),
        {
          binaries,
          output: quiet,
        },
      ),
    ).rejects.toThrow("The URL answered 404 Not Found.");
  });

  it("says so when the file does not exist", async () => {
    await expect(
      runClipCommand(parseClipArgs([path.join(directory, "nope.mp4"), "--out", path.join(directory, "y")]), {
        binaries,
        output: quiet,
      }),
    ).rejects.toThrow(/No such file/);
  });

  it("renders each clip with its thumbnail and preview", async () => {
    const outDir = path.join(directory, "rendered");
    const report = await runClipCommand(parseClipArgs([videoPath, "--out", outDir, "--top", "1"]), {
      binaries,
      output: quiet,
    });
    const [clip] = report.clips;
    expect(clip?.file).toBe("clip-01.mp4");
    for (const file of [clip?.file, clip?.thumbnail, clip?.preview]) {
      expect(file).toBeTruthy();
      await access(path.join(outDir, file ?? ""));
    }
    expect((await stat(path.join(outDir, "clip-01.mp4"))).size).toBeGreaterThan(10_000);
    expect(report.timings.renderSeconds).toHaveLength(1);
  }, 240_000);

  it("refuses, before any work, a video that this run would write over", async () => {
    const outDir = path.join(directory, "reclip");
    await mkdir(outDir, { recursive: true });
    // Re-clipping an earlier clip into its own folder: clip-01.mp4 is this run's first output.
    const earlierClip = path.join(outDir, "clip-01.mp4");
    await copyFile(videoPath, earlierClip);
    const original = await readFile(earlierClip);
    // The same file through a link from elsewhere.
    const link = path.join(directory, "link-to-earlier-clip.mp4");
    await symlink(earlierClip, link);
    for (const [input, message] of [
      [
        earlierClip,
        /^Refusing to overwrite the video: clip-01\.mp4 in .*reclip is a file this run would replace/,
      ],
      [
        link,
        /^Refusing to overwrite the video: .*link-to-earlier-clip\.mp4 is the same file as .*clip-01\.mp4,/,
      ],
    ] as const) {
      const lines: string[] = [];
      await expect(
        runClipCommand(parseClipArgs([input, "--out", outDir, "--top", "2"]), {
          binaries,
          output: lineOutput((line) => lines.push(line)),
        }),
      ).rejects.toThrow(message);
      expect(lines).toEqual([]);
    }
    expect((await readFile(earlierClip)).equals(original)).toBe(true);
    expect(await readdir(outDir)).toEqual(["clip-01.mp4"]);
  }, 240_000);

  it.each([
    ["is a file", (file: string) => file, /^--out .*not-a-folder is a file, not a folder/],
    [
      "is under a file",
      (file: string) => path.join(file, "clips"),
      /^--out .*clips cannot be a folder: .*not-a-folder is a file/,
    ],
  ])(
    "refuses an --out that %s before any work",
    async (_, outDirFor, message) => {
      const file = path.join(directory, "not-a-folder");
      await writeFile(file, "notes");
      const lines: string[] = [];
      await expect(
        runClipCommand(parseClipArgs([videoPath, "--out", outDirFor(file), "--no-render"]), {
          binaries,
          output: lineOutput((line) => lines.push(line)),
        }),
      ).rejects.toThrow(message);
      expect(lines).toEqual([]);
    },
    60_000,
  );

  it("refuses a video under 3 s in the worker's words", async () => {
    const shortVideo = path.join(directory, "two-seconds.mp4");
    const still = path.join(directory, "still.png");
    await runMedia({
      binaryPath: binaries.ffmpegPath,
      args: ["-v", "error", "-y", "-i", videoPath, "-t", "2", "-c:v", "libx264", "-c:a", "aac", shortVideo],
      timeoutMs: 30_000,
    });
    await runMedia({
      binaryPath: binaries.ffmpegPath,
      args: ["-v", "error", "-y", "-i", videoPath, "-frames:v", "1", still],
      timeoutMs: 30_000,
    });
    for (const [input, message] of [
      [shortVideo, "This video is 2 s long; a clip needs at least 3 s."],
      [still, "This video is 0 s long; a clip needs at least 3 s."],
    ] as const) {
      const outDir = path.join(directory, `too-short-${path.basename(input)}`);
      await expect(
        runClipCommand(parseClipArgs([input, "--out", outDir]), { binaries, output: quiet }),
      ).rejects.toThrow(message);
      expect(await readdir(outDir)).toEqual([]);
    }
  }, 60_000);

  it("replaces the earlier run's files listed in its report.json, and only those", async () => {
    const outDir = path.join(directory, "rerun");
    await mkdir(outDir, { recursive: true });
    const earlierFiles = [1, 2, 3, 4].flatMap((rank) => [
      `clip-0${rank}.mp4`,
      `clip-0${rank}.jpg`,
      `clip-0${rank}.preview.webp`,
    ]);
    for (const name of [...earlierFiles, "clip-09.mp4", "notes.txt"]) {
      await writeFile(path.join(outDir, name), "earlier");
    }
    await writeFile(path.join(directory, "outside.mp4"), "not ours");
    const earlierClips = [1, 2, 3, 4].map((rank) => ({
      rank,
      file: `clip-0${rank}.mp4`,
      thumbnail: `clip-0${rank}.jpg`,
      preview: `clip-0${rank}.preview.webp`,
    }));
    // A report edited by hand must not reach outside --out, nor remove what this tool never names so.
    earlierClips.push({ rank: 5, file: "../outside.mp4", thumbnail: "notes.txt", preview: "/etc/hosts" });
    await writeFile(path.join(outDir, "report.json"), JSON.stringify({ clips: earlierClips }));

    // A run that fails leaves the earlier one as it was.
    await expect(
      runClipCommand(
        parseClipArgs([
          videoPath,
          "--out",
          outDir,
          "--top",
          "1",
          "--captions",
          path.join(directory, "no.srt"),
        ]),
        { binaries, output: quiet },
      ),
    ).rejects.toThrow(/Cannot read the captions file/);
    expect((await readdir(outDir)).length).toBe(earlierFiles.length + 3);

    const lines: string[] = [];
    const report = await runClipCommand(
      parseClipArgs([videoPath, "--out", outDir, "--top", "1", "--no-render"]),
      { binaries, output: lineOutput((line) => lines.push(line)) },
    );
    expect(report.clips).toHaveLength(1);
    expect((await readdir(outDir)).sort()).toEqual(["clip-09.mp4", "notes.txt", "report.json"]);
    await access(path.join(directory, "outside.mp4"));
    expect(JSON.parse(await readFile(path.join(outDir, "report.json"), "utf8"))).toEqual(report);
    expect(lines).toContain("Removed 12 files of the earlier run that this one did not replace");
  }, 60_000);
});
