import { mkdir, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFaceDetector } from "@/engine/faces/face-detector";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import type { LayoutChoice, MediaProbe, RenderClipInput } from "@/engine/types";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { LOUDNESS_TARGET } from "@/media/loudness-args";
import { PREVIEW } from "@/media/preview-args";
import { probeMedia } from "@/media/probe";
import { readMediaStdout, runMedia } from "@/media/run-ffmpeg";
import { prepareRenderer, RENDER_TEMP_PREFIX, renderClip } from "./render-clip";

/**
 * Real renders of small generated sources (640×360 or 360×640 at 15 fps, a few seconds each),
 * checked with ffprobe and by looking at decoded output frames.
 */
const binaries = resolveMediaBinaries();
let workDirectory: string;
// renderClip's work directories go here rather than os.tmpdir(), where other processes render too.
let temporaryDirectory: string;
type Source = { path: string; probe: MediaProbe };
const sources = {} as Record<
  | "movingBox"
  | "timecodeBox"
  | "bouncingCard"
  | "vertical"
  | "rotated"
  | "silentWide"
  | "hdrHlg"
  | "anamorphic"
  | "facecam"
  | "smallFacecam"
  | "glimpsedFacecam"
  | "smallFacecamLongGop"
  | "smallFacecamStream"
  | "tone",
  Source
>;
const rendered: Record<string, string> = {};

/** A render of `source` from `startSeconds` to `endSeconds` into the shared output directory. */
function clipOf(
  source: keyof typeof sources,
  startSeconds: number,
  endSeconds: number,
  baseName: string,
): RenderClipInput {
  const { path: sourcePath, probe } = sources[source];
  return {
    sourcePath,
    probe,
    startSeconds,
    endSeconds,
    sceneCutsSeconds: [],
    outputDir: path.join(workDirectory, "out"),
    baseName,
  };
}

const BOX_SIZE = 64;
const WIDE = { width: 640, height: 360 };

async function generate(
  name: string,
  args: string[],
  outputArgs?: string[],
): Promise<{ path: string; probe: MediaProbe }> {
  const output = path.join(workDirectory, name);
  await encodeTestVideo({ binaries, inputArgs: args, outputArgs, outputPath: output });
  return { path: output, probe: await probeMedia({ binaries, input: output }) };
}

/** One part of a face cam clip's frame at 2 s (a crop filter), scaled to width × height RGB. */
async function facecamPanel(videoPath: string, crop: string, width: number, height: number) {
  const data = await readMediaStdout({
    binaryPath: binaries.ffmpegPath,
    args: [
      ...["-v", "error", "-ss", "2", "-i", videoPath, "-frames:v", "1"],
      ...["-vf", `${crop},scale=${width}:${height}:flags=area,format=rgb24`, "-f", "rawvideo", "pipe:1"],
    ],
    timeoutMs: 30_000,
  });
  return { width, height, data };
}

type ProbedStream = {
  codec_type: string;
  codec_name: string;
  channels?: number;
  width?: number;
  height?: number;
  pix_fmt?: string;
  color_transfer?: string;
  color_primaries?: string;
};
async function ffprobeJson(file: string): Promise<{ streams: ProbedStream[]; format: { duration: string } }> {
  const json = await readMediaStdout({
    binaryPath: binaries.ffprobePath,
    args: ["-v", "error", "-show_streams", "-show_format", "-of", "json", file],
    timeoutMs: 30_000,
  });
  return JSON.parse(json.toString("utf8"));
}

/** Top-level MP4 box types in file order (ftyp, moov, mdat, …). */
async function topLevelBoxes(file: string): Promise<string[]> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const types: string[] = [];
    const header = Buffer.alloc(16);
    for (let offset = 0; offset < size; ) {
      await handle.read(header, 0, 16, offset);
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      types.push(header.toString("latin1", 4, 8));
      if (boxSize < 8) break;
      offset += boxSize;
    }
    return types;
  } finally {
    await handle.close();
  }
}

async function integratedLoudnessLufs(file: string): Promise<number> {
  let integrated = Number.NaN;
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: ["-hide_banner", "-nostats", "-i", file, "-map", "0:a", "-af", "ebur128", "-f", "null", "-"],
    timeoutMs: 30_000,
    onStderrLine: (line) => {
      const match = /^\s*I:\s+(-?[\d.]+|-inf) LUFS/.exec(line);
      if (match) integrated = match[1] === "-inf" ? Number.NEGATIVE_INFINITY : Number(match[1]);
    },
  });
  return integrated;
}

/** Output frames as small greyscale images, `framesPerSecond` of them per second. */
async function greyFrames(
  file: string,
  framesPerSecond: number,
  width = 108,
  height = 192,
): Promise<Uint8Array[]> {
  const raw = await readMediaStdout({
    binaryPath: binaries.ffmpegPath,
    args: [
      "-v",
      "error",
      "-i",
      file,
      "-vf",
      `fps=${framesPerSecond},scale=${width}:${height}:flags=area,format=gray`,
      "-f",
      "rawvideo",
      "pipe:1",
    ],
    timeoutMs: 30_000,
  });
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset + width * height <= raw.length; offset += width * height) {
    frames.push(new Uint8Array(raw.subarray(offset, offset + width * height)));
  }
  return frames;
}

/** The colour (8-bit RGB, read as BT.709) at a point of a file's first frame, in fractions. */
async function colourAt(file: string, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const [width, height] = [108, 192];
  const rgb = await readMediaStdout({
    binaryPath: binaries.ffmpegPath,
    args: [
      ...["-v", "error", "-i", file, "-frames:v", "1"],
      ...["-vf", `scale=${width}:${height}:flags=area:in_color_matrix=bt709,format=rgb24`],
      ...["-f", "rawvideo", "pipe:1"],
    ],
    timeoutMs: 30_000,
  });
  const offset = (Math.floor(y * height) * width + Math.floor(x * width)) * 3;
  return { r: rgb[offset]!, g: rgb[offset + 1]!, b: rgb[offset + 2]! };
}

/** Centre (fractions of the frame) of the bright pixels, and how many there are. */
function brightCentre(frame: Uint8Array, width: number): { x: number; y: number; count: number } {
  const height = frame.length / width;
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  frame.forEach((value, index) => {
    if (value > 160) {
      sumX += (index % width) + 0.5;
      sumY += Math.floor(index / width) + 0.5;
      count += 1;
    }
  });
  return { x: sumX / Math.max(1, count) / width, y: sumY / Math.max(1, count) / height, count };
}

/** Width and height, in pixels, of the box around a frame's bright pixels. */
function brightExtent(frame: Uint8Array, width: number): { width: number; height: number } {
  let [left, right, top, bottom] = [width, -1, Number.POSITIVE_INFINITY, -1];
  frame.forEach((value, index) => {
    const [x, y] = [index % width, Math.floor(index / width)];
    if (value <= 160) return;
    [left, right, top, bottom] = [
      Math.min(left, x),
      Math.max(right, x),
      Math.min(top, y),
      Math.max(bottom, y),
    ];
  });
  return { width: right - left + 1, height: bottom - top + 1 };
}

/** Horizontal centre (0..1) of the bright pixels in a frame, or null if there are none. */
function brightCentreX(frame: Uint8Array, width: number): number | null {
  const centre = brightCentre(frame, width);
  return centre.count > 20 ? centre.x : null;
}

/** Work directories renderClip left behind in this file's own temporary parent directory. */
async function renderTemps(): Promise<string[]> {
  return (await readdir(temporaryDirectory)).filter((name) => name.startsWith(RENDER_TEMP_PREFIX));
}

beforeAll(async () => {
  workDirectory = await mkdtemp(path.join(os.tmpdir(), "truss-render-test-"));
  temporaryDirectory = path.join(workDirectory, "tmp");
  await mkdir(temporaryDirectory);
  // A white box crossing a dark frame from x≈11% to x≈89% in 6 s, with a quiet tone (≈ −33 LUFS).
  const boxTravel = WIDE.width - BOX_SIZE - 80;
  sources.movingBox = await generate("moving-box.mp4", [
    "-f",
    "lavfi",
    "-i",
    `color=c=0x101010:s=${WIDE.width}x${WIDE.height}:r=15:d=6[bg];color=c=white:s=${BOX_SIZE}x${BOX_SIZE}:r=15:d=6[box];[bg][box]overlay=x='40+t*${boxTravel}/6':y=148:shortest=1`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=48000:duration=6,volume=-30dB",
    "-c:a",
    "aac",
    "-shortest",
  ]);
  // The same box under a running timecode burned in at the top left (HH:MM:SS.mmm, as streams
  // and screen recordings show a clock): its digits change in every sample but never move.
  sources.timecodeBox = await generate("timecode-box.mp4", [
    "-f",
    "lavfi",
    "-i",
    `color=c=0x101010:s=${WIDE.width}x${WIDE.height}:r=15:d=6[bg];color=c=white:s=${BOX_SIZE}x${BOX_SIZE}:r=15:d=6[box];[bg][box]overlay=x='40+t*${boxTravel}/6':y=148:shortest=1,` +
      `drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf:text='%{pts\\:hms}':x=10:y=10:fontsize=24:fontcolor=white`,
  ]);
  // A still frame with a steady 250 Hz tone (−20 dBFS), for the audio at a clip's edges.
  sources.tone = await generate("tone.mp4", [
    ...["-f", "lavfi", "-i", `color=c=0x303030:s=${WIDE.width}x${WIDE.height}:r=15:d=4`],
    ...["-f", "lavfi", "-i", "sine=frequency=250:sample_rate=48000:duration=4,volume=-20dB"],
    "-c:a",
    "aac",
    "-shortest",
  ]);
  // A card swinging from side to side and back every 4 s, at up to 2/3 of the frame's width a
  // second: more than three times the pace a camera may pan at.
  sources.bouncingCard = await generate("bouncing-card.mp4", [
    "-f",
    "lavfi",
    "-i",
    `color=c=0x85c1e9:s=${WIDE.width}x${WIDE.height}:r=15:d=5[bg];testsrc2=s=120x120:r=15:d=5[card];[bg][card]overlay=x='(W-w)*(0.5+0.5*sin(t*1.6))':y=120:shortest=1`,
  ]);
  // With 5.1 audio, which the clip folds to stereo.
  sources.vertical = await generate("vertical.mp4", [
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=360x640:rate=15:duration=2",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=300:duration=2,aformat=channel_layouts=5.1",
    "-c:a",
    "aac",
    "-shortest",
  ]);
  // A phone-style rotated file: the coded picture is landscape (a white box near its top-left
  // corner) and a display matrix turns it upright. Remuxing with `rotate` sets the matrix.
  const landscape = await generate("rotated-source.mp4", [
    "-f",
    "lavfi",
    "-i",
    "color=c=0x101010:s=640x360:r=15:d=1.5[bg];color=c=white:s=100x100:r=15:d=1.5[box];[bg][box]overlay=x=20:y=20:shortest=1",
  ]);
  const rotatedPath = path.join(workDirectory, "rotated.mov");
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: [
      "-v",
      "error",
      "-i",
      landscape.path,
      "-map",
      "0",
      "-c",
      "copy",
      "-metadata:s:v:0",
      "rotate=90",
      rotatedPath,
    ],
    timeoutMs: 30_000,
  });
  sources.rotated = { path: rotatedPath, probe: await probeMedia({ binaries, input: rotatedPath }) };
  // A still wide shot with no audio track: nothing to follow, so the fit layout.
  sources.silentWide = await generate("still-no-audio.mp4", [
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=${WIDE.width}x${WIDE.height}:rate=15:duration=2,trim=end_frame=1,loop=loop=29:size=1`,
  ]);
  // A phone's HDR: 10-bit HEVC, BT.2020, HLG. Its left half is SDR's pure red, its right half
  // mid grey, converted to HLG the way zimg maps SDR into it.
  sources.hdrHlg = await generate(
    "hdr-hlg.mp4",
    [
      "-f",
      "lavfi",
      "-i",
      "color=c=red:s=320x360:r=15:d=2[red];color=c=0x808080:s=320x360:r=15:d=2[grey];[red][grey]hstack," +
        "format=yuv420p,setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv," +
        "zscale=t=linear,format=gbrpf32le,zscale=p=bt2020:t=arib-std-b67:m=bt2020nc:r=tv,format=yuv420p10le",
    ],
    [
      ...["-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"],
      ...["-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc"],
    ],
  );
  // Anamorphic, as HDV stored 16:9: a 640×360 picture (a 48×48 white square crossing a dark
  // frame) kept as 480×360 pixels that are each 4/3 as wide as they are tall.
  sources.anamorphic = await generate("anamorphic.mp4", [
    "-f",
    "lavfi",
    "-i",
    "color=c=0x101010:s=640x360:r=15:d=4[bg];color=c=white:s=48x48:r=15:d=4[box];" +
      "[bg][box]overlay=x='40+t*128':y=156:shortest=1,scale=480:360,setsar=4/3",
  ]);
  // A streamer over their game: a 16:9 face cam (a face photo shipped in @vladmandic/human)
  // inset at the bottom right of a picture that changes all the time.
  const facePhoto = path.join(
    path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human")),
    "..",
    "assets",
    "screenshot-faceid.jpg",
  );
  // Keyframes every 2 s, as streaming encoders put them: the cam shows on two keyframes only.
  sources.facecam = await generate(
    "facecam.mp4",
    [
      ...["-f", "lavfi", "-i", `testsrc2=size=${WIDE.width}x${WIDE.height}:rate=15:duration=4`],
      ...["-loop", "1", "-i", facePhoto],
      "-filter_complex",
      "[0:v]hue=H=2*t[game];[1:v]crop=200:112:0:142,scale=192:108[cam];[game][cam]overlay=x=W-w-12:y=H-h-12:shortest=1",
    ],
    ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0"],
  );
  // The same streamer in 720p with a cam an eighth of the width, whose face (~9% of the frame's
  // height) the detector misses on the whole 256-px analysis frame; and with a cam 15% of the
  // width, whose face it finds on some frames only.
  const smallCam = (width: number, height: number) => [
    ...["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=15:duration=4"],
    ...["-loop", "1", "-i", facePhoto],
    "-filter_complex",
    `[0:v]hue=H=2*t[game];[1:v]crop=200:112:0:142,scale=${width}:${height}[cam];[game][cam]overlay=x=W-w-12:y=H-h-12:shortest=1`,
  ];
  const streamerKeyframes = ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0"];
  sources.smallFacecam = await generate("small-facecam.mp4", smallCam(160, 90), streamerKeyframes);
  sources.glimpsedFacecam = await generate("glimpsed-facecam.mp4", smallCam(192, 108), streamerKeyframes);
  // A stream's keyframes (every 2 s) over 10 s: five, enough to find a still cam's edges on.
  sources.smallFacecamStream = await generate(
    "small-facecam-stream.mp4",
    smallCam(160, 90).map((arg) => arg.replace("duration=4", "duration=10")),
    streamerKeyframes,
  );
  // As a local recording keeps keyframes (every 250 frames): one in the 4 s.
  sources.smallFacecamLongGop = await generate("small-facecam-long-gop.mp4", smallCam(160, 90), [
    "-g",
    "250",
  ]);
}, 60_000);

afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

describe("renderClip", () => {
  it("renders a 1080×1920 H.264/AAC faststart clip that follows the moving subject, at −14 LUFS", async () => {
    const fractions: number[] = [];
    const clip = await renderClip(
      {
        ...clipOf("movingBox", 1, 5, "moving-box"),
        onProgress: (fraction) => fractions.push(fraction),
      },
      { log: () => undefined, temporaryDirectory },
    );
    rendered.movingBox = clip.videoPath;
    // No motion curve given: the subject is followed on frames sampled at 4 fps.
    expect(clip).toMatchObject({
      layout: "crop",
      subjectSampling: "frames",
      width: 1080,
      height: 1920,
      durationSeconds: 4,
    });
    expect(clip.videoPath).toBe(path.join(workDirectory, "out", "moving-box.mp4"));

    const probe = await ffprobeJson(clip.videoPath);
    const video = probe.streams.find((stream) => stream.codec_type === "video");
    const audio = probe.streams.find((stream) => stream.codec_type === "audio");
    expect(video).toMatchObject({ codec_name: "h264", width: 1080, height: 1920, pix_fmt: "yuv420p" });
    // The source's tone is mono, and so is the clip's audio (not upmixed).
    expect(audio).toMatchObject({ codec_name: "aac", channels: 1 });
    expect(Number(probe.format.duration)).toBeCloseTo(4, 0);
    const boxes = await topLevelBoxes(clip.videoPath);
    expect(boxes.indexOf("moov")).toBeGreaterThan(-1);
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));

    expect(
      Math.abs((await integratedLoudnessLufs(clip.videoPath)) - LOUDNESS_TARGET.integratedLufs),
    ).toBeLessThanOrEqual(2);

    // The box runs from 24% to 76% of the source's width over the clip; a fixed centre crop
    // (34%–66%) would lose it at both ends. The rendered crop keeps it in view, near the middle.
    const centres = (await greyFrames(clip.videoPath, 4)).map((frame) => brightCentreX(frame, 108));
    expect(centres.length).toBeGreaterThanOrEqual(15);
    for (const centre of centres) {
      expect(centre).not.toBeNull();
      expect(Math.abs(centre! - 0.5)).toBeLessThan(0.2);
    }

    expect(fractions.at(-1)).toBe(1);
    expect(fractions.some((fraction) => fraction > 0.2 && fraction < 0.95)).toBe(true);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);

    const thumbnail = await ffprobeJson(clip.thumbnailPath);
    expect(thumbnail.streams[0]).toMatchObject({ codec_name: "mjpeg", width: 1080, height: 1920 });
    const webp = await readFile(clip.previewPath);
    expect(webp.toString("latin1", 0, 4)).toBe("RIFF");
    expect(webp.toString("latin1", 8, 16)).toBe("WEBPVP8X");
    expect(webp.includes(Buffer.from("ANIM"))).toBe(true);
    // VP8X canvas size: 24-bit little-endian width−1 and height−1 at bytes 24 and 27.
    expect(webp.readUIntLE(24, 3) + 1).toBe(PREVIEW.width);
    expect(webp.readUIntLE(27, 3) + 1).toBe(PREVIEW.height);
    expect(await renderTemps()).toEqual([]);
  }, 60_000);

  it("fades the audio in and out at the cut instead of starting and ending mid-waveform (a click)", async () => {
    // 1.001 s into a 250 Hz tone is a quarter period: the cut falls on a crest, not a zero.
    const clip = await renderClip(
      { ...clipOf("tone", 1.001, 3.001, "tone"), layoutChoice: "fit" },
      { log: () => undefined, temporaryDirectory },
    );
    const pcm = await readMediaStdout({
      binaryPath: binaries.ffmpegPath,
      args: ["-v", "error", "-i", clip.videoPath, "-map", "0:a:0", "-ac", "1", "-f", "s16le", "-"],
      timeoutMs: 30_000,
    });
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));
    const peak = (fromMs: number, toMs: number) =>
      Math.max(...samples.subarray(fromMs * 48, toMs * 48).map((sample) => Math.abs(sample)));
    const steady = peak(900, 1100);
    expect(steady).toBeGreaterThan(3000);
    // The first and the last millisecond (the clip is 2 s; AAC pads its last frame past that)
    // are near silence, and the tone is back at full level 20 ms in.
    expect(peak(0, 1)).toBeLessThan(0.1 * steady);
    expect(peak(1999, 2000)).toBeLessThan(0.1 * steady);
    expect(peak(25, 60)).toBeGreaterThan(0.8 * steady);
    expect(peak(1940, 1975)).toBeGreaterThan(0.8 * steady);
  }, 60_000);

  it("goes straight to the 4 fps pass when the listed keyframes are far apart where the picture moves", async () => {
    const messages: string[] = [];
    const clip = await renderClip(
      {
        ...clipOf("movingBox", 1, 4, "moving-box-no-scan"),
        // As the fast signal pass lists them: the clip's only keyframe is its first frame, and
        // the box moves throughout.
        keyframesSeconds: [0, 1],
        motionPerSecond: [0.05, 0.05, 0.05, 0.05, 0.05, 0.05],
      },
      { log: (message) => messages.push(message), temporaryDirectory },
    );
    expect(clip).toMatchObject({ layout: "crop", subjectSampling: "frames" });
    expect(messages.join("\n")).toMatch(
      /subject from frames at 4 fps, no keyframe scan: the picture moves between keyframes 0\.0–3\.0 s/,
    );
    const centres = (await greyFrames(clip.videoPath, 4)).map((frame) => brightCentreX(frame, 108));
    expect(centres.length).toBeGreaterThan(0);
    for (const centre of centres) expect(Math.abs(centre! - 0.5)).toBeLessThan(0.2);
  }, 60_000);

  it("follows the moving box, not a running timecode burned into the corner (an overlay)", async () => {
    const messages: string[] = [];
    const clip = await renderClip(clipOf("timecodeBox", 0, 6, "timecode-box"), {
      faceDetector: null,
      log: (message) => messages.push(message),
      temporaryDirectory,
    });
    expect(clip).toMatchObject({ layout: "crop", subjectSampling: "frames" });
    const overlays = messages.find((message) => message.startsWith("motion left out of")) ?? "";
    expect(overlays).toMatch(
      /^motion left out of 1 overlay \(fixed, changing in most samples\): \d+×\d+% at \d+%, 0%$/,
    );
    // The box runs from 11% to 89% of the source's width: the crop keeps it in view, near the
    // middle, to the end (it lost it in the last second, drawn towards the timecode, before).
    // Its rows only (41–59% of the height): the timecode is white too.
    const rowWidth = 108;
    const centres = (await greyFrames(clip.videoPath, 4)).map((frame) =>
      brightCentreX(
        frame.subarray(Math.round(0.35 * 192) * rowWidth, Math.round(0.65 * 192) * rowWidth),
        rowWidth,
      ),
    );
    expect(centres.length).toBeGreaterThanOrEqual(22);
    for (const centre of centres) {
      expect(centre).not.toBeNull();
      expect(Math.abs(centre! - 0.5)).toBeLessThan(0.2);
    }
  }, 60_000);

  it("shows the whole frame when the subject darts about faster than a 9:16 camera can follow", async () => {
    const messages: string[] = [];
    const clip = await renderClip(clipOf("bouncingCard", 0, 5, "bouncing-card"), {
      faceDetector: null,
      log: (message) => messages.push(message),
      temporaryDirectory,
    });
    expect(clip).toMatchObject({ layout: "fit", subjectSampling: "frames" });
    const layout = messages.find((message) => message.startsWith("layout fit:")) ?? "";
    expect(layout).toMatch(
      /^layout fit: concentrated motion in \d+% of samples, but a 9:16 camera keeps the moving subject in view in only \d+% of them$/,
    );
    expect(Number(/only (\d+)%/.exec(layout)?.[1])).toBeLessThan(60);
  }, 60_000);

  it("burns captions into the safe band", async () => {
    expect(rendered.movingBox).toBeDefined();
    const clip = await renderClip(
      {
        ...clipOf("movingBox", 1, 5, "captioned"),
        transcript: [{ startSeconds: 0, endSeconds: 6, text: "Captions make shorts watchable" }],
      },
      { log: () => undefined, temporaryDirectory },
    );
    const [plain, captioned] = await Promise.all([
      greyFrames(rendered.movingBox!, 1),
      greyFrames(clip.videoPath, 1),
    ]);
    // Pixels per frame that clearly changed (by more than a quarter of full scale) in a band of rows.
    const changedPixelsPerFrame = (fromRow: number, toRow: number) => {
      let changed = 0;
      for (let frame = 0; frame < plain.length; frame += 1) {
        for (let index = fromRow * 108; index < toRow * 108; index += 1) {
          if (Math.abs((plain[frame]![index] ?? 0) - (captioned[frame]![index] ?? 0)) > 64) changed += 1;
        }
      }
      return changed / plain.length;
    };
    expect(plain.length).toBe(4);
    // 108×192 frames: the caption band lies between the top 10% (rows 0–19) and the bottom 20%
    // (rows 154–191), which platform overlays cover and must stay untouched.
    expect(changedPixelsPerFrame(19, 154)).toBeGreaterThan(100);
    expect(changedPixelsPerFrame(0, 19)).toBe(0);
    expect(changedPixelsPerFrame(154, 192)).toBe(0);
  }, 60_000);

  it("renders a vertical source as it is (native-vertical, no crop)", async () => {
    const clip = await renderClip(clipOf("vertical", 0, 2, "vertical"), {
      log: () => undefined,
      temporaryDirectory,
    });
    expect(clip.layout).toBe("native-vertical");
    const { streams } = await ffprobeJson(clip.videoPath);
    expect(streams.find((stream) => stream.codec_type === "video")).toMatchObject({
      width: 1080,
      height: 1920,
    });
    expect(sources.vertical.probe.hasAudio).toBe(true);
    expect(streams.find((stream) => stream.codec_type === "audio")).toMatchObject({ channels: 2 });
  }, 60_000);

  it("stacks a face cam over the middle of the game (facecam layout) rather than cropping onto the face", async () => {
    const logs: string[] = [];
    const clip = await renderClip(clipOf("facecam", 0, 4, "facecam"), {
      log: (message) => logs.push(message),
      temporaryDirectory,
    });
    expect(clip.layout).toBe("facecam");
    // Two keyframes are one pair of pictures: too few to find the cam's edges from.
    expect(logs).toContain("a face cam seen on a few keyframes: frames at 4 fps to find its edges");
    expect(logs.some((message) => message.includes("cam edges found: left, right, top, bottom"))).toBe(true);
    const detector = await loadFaceDetector();
    // The top third (1080×640) shows the face; the rest, the middle of the game, shows none.
    const [top, bottom] = await Promise.all([
      facecamPanel(clip.videoPath, "crop=1080:640:0:0", 256, 152),
      facecamPanel(clip.videoPath, "crop=1080:1280:0:640", 256, 304),
    ]);
    const [[topFaces], [bottomFaces]] = await Promise.all([
      detector.detect([top]),
      detector.detect([bottom]),
    ]);
    expect(topFaces).toHaveLength(1);
    // Not squeezed into a corner: the face cam is the panel's subject.
    expect(topFaces![0]!.height).toBeGreaterThan(0.4);
    expect(bottomFaces).toHaveLength(0);
    // The panel is the cam, edge to edge: no strip of the game (saturated test-pattern colours)
    // along its sides, only the photo's greys and skin tones.
    const saturationAt = (x: number, y: number) => {
      const offset = (y * top.width + x) * 3;
      const [r, g, b] = [top.data[offset]!, top.data[offset + 1]!, top.data[offset + 2]!];
      return Math.max(r, g, b) - Math.min(r, g, b);
    };
    const border: number[] = [];
    for (let y = 0; y < top.height; y += 1) {
      for (let x = 0; x < top.width; x += 1) {
        if (x < 6 || x >= top.width - 6 || y < 4 || y >= top.height - 4) border.push(saturationAt(x, y));
      }
    }
    expect(border.reduce((sum, value) => sum + value, 0) / border.length).toBeLessThan(40);
    const { streams } = await ffprobeJson(clip.videoPath);
    expect(streams.find((stream) => stream.codec_type === "video")).toMatchObject({
      width: 1080,
      height: 1920,
    });
  }, 60_000);

  it.each([
    ["smallFacecam", "never seen", "auto", "2 keyframes"],
    ["glimpsedFacecam", "glimpsed on one keyframe of two", "auto", "2 keyframes"],
    // Before, the creator's choice of a face cam came out as the whole frame: no face to put in it.
    ["smallFacecam", "never seen", "facecam", "2 keyframes"],
    // One keyframe is too few to judge a cam on: frames between keyframes are decoded.
    ["smallFacecamLongGop", "never seen", "auto", "6 frames"],
  ] as const)(
    "finds a face cam whose face is too small for the whole frame (%s: %s; layout %s) by looking closer",
    async (source, _howSeen, layoutChoice, lookedAt) => {
      const logs: string[] = [];
      const clip = await renderClip(
        {
          ...clipOf(source, 0, 4, `${source}-${layoutChoice}`),
          layoutChoice,
        },
        { log: (message) => logs.push(message), temporaryDirectory },
      );
      expect(
        logs.some((message) =>
          new RegExp(`^looked closer at \\d insets? on ${lookedAt}: faces on \\d, a face cam$`).test(message),
        ),
      ).toBe(true);
      expect(clip.layout).toBe("facecam");
      // The panel at the top shows the face, large enough now to be found on the whole panel.
      const top = await facecamPanel(clip.videoPath, "crop=1080:640:0:0", 256, 152);
      const [topFaces] = await (await loadFaceDetector()).detect([top]);
      expect(topFaces).toHaveLength(1);
      expect(topFaces![0]!.height).toBeGreaterThan(0.3);
    },
    60_000,
  );

  it("keeps the plan from the whole frame when looking closer fails, and does not look again", async () => {
    // The real ffmpeg, except for runs that cut regions out of the frame (the closer look).
    const failingCloserLook = path.join(workDirectory, "ffmpeg-failing-closer-look.sh");
    await writeFile(
      failingCloserLook,
      [
        "#!/bin/sh",
        'case "$*" in *"crop=w=floor(iw*"*) echo "injected: cannot cut regions" >&2; exit 1;; esac',
        `exec "${binaries.ffmpegPath}" "$@"`,
      ].join("\n"),
      { mode: 0o755 },
    );
    const logs: string[] = [];
    const clip = await renderClip(clipOf("smallFacecamStream", 0, 10, "closer-look-fails"), {
      binaries: { ...binaries, ffmpegPath: failingCloserLook },
      log: (message) => logs.push(message),
      temporaryDirectory,
    });
    const failures = logs.filter((message) => message.startsWith("looking closer for a face cam failed:"));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("injected: cannot cut regions");
    // The keyframes fell short, so the segment was sampled at 4 fps, and no second look followed.
    expect(logs.some((message) => message.startsWith("subject from frames at 4 fps"))).toBe(true);
    // The whole frame's plan: the cam's face is too small to be found there.
    expect(clip.layout).toBe("fit");
    expect((await stat(clip.videoPath)).size).toBeGreaterThan(0);
  }, 60_000);

  it("finds a small face cam on a stream's keyframes by looking closer, with no 4 fps pass", async () => {
    const logs: string[] = [];
    const clip = await renderClip(clipOf("smallFacecamStream", 0, 10, "small-facecam-stream"), {
      log: (message) => logs.push(message),
      temporaryDirectory,
    });
    expect(
      logs.some((message) =>
        /^looked closer at \d insets? on 5 keyframes: faces on 5, a face cam$/.test(message),
      ),
    ).toBe(true);
    expect(logs.some((message) => message.includes("frames at 4 fps"))).toBe(false);
    expect(clip).toMatchObject({ layout: "facecam", subjectSampling: "keyframes" });
    const [topFaces] = await (await loadFaceDetector()).detect([
      await facecamPanel(clip.videoPath, "crop=1080:640:0:0", 256, 152),
    ]);
    expect(topFaces).toHaveLength(1);
  }, 60_000);

  it("renders the layout the creator chose: the whole frame without a subject pass, a crop where the whole frame would show", async () => {
    const logs: string[] = [];
    const render = (source: keyof typeof sources, layoutChoice: LayoutChoice, baseName: string) =>
      renderClip(
        {
          sourcePath: sources[source].path,
          probe: sources[source].probe,
          startSeconds: 0,
          endSeconds: 2,
          sceneCutsSeconds: [],
          layoutChoice,
          outputDir: path.join(workDirectory, "out"),
          baseName,
        },
        { log: (message) => logs.push(message), temporaryDirectory },
      );
    // The moving box is followed by a crop when the render decides; the whole frame shows it
    // where it is, left of the middle in the first second, between blurred bands.
    const whole = await render("movingBox", "fit", "moving-box-fit");
    expect(whole).toMatchObject({ layout: "fit", subjectSampling: null });
    expect(logs).toContain("layout fit: the creator chose fit");
    const [first] = await greyFrames(whole.videoPath, 1);
    const box = brightCentre(first!, 108);
    expect(box.x).toBeGreaterThan(0.1);
    expect(box.x).toBeLessThan(0.35);
    expect(Math.abs(box.y - 0.5)).toBeLessThan(0.15);

    // The still test card is shown whole when the render decides; a crop was asked for.
    const cropped = await render("silentWide", "crop", "still-crop");
    expect(cropped).toMatchObject({ layout: "crop" });
    expect(
      logs.some((message) => /^layout crop: the creator's choice: a crop in the middle/.test(message)),
    ).toBe(true);
  }, 60_000);

  it("crops against the displayed (rotated) picture: a rotated phone video is vertical", async () => {
    expect(sources.rotated.probe).toMatchObject({
      width: 360,
      height: 640,
      codedWidth: 640,
      codedHeight: 360,
    });
    const clip = await renderClip(clipOf("rotated", 0, 1.5, "rotated"), {
      log: () => undefined,
      temporaryDirectory,
    });
    expect(clip.layout).toBe("native-vertical");
    // The box sits where ffmpeg's own upright decode of the source puts it (not where the coded
    // landscape picture has it): the render is turned the same way and fills the frame.
    const [sourceFrame] = await greyFrames(sources.rotated.path, 1);
    const [outputFrame] = await greyFrames(clip.videoPath, 1);
    const expected = brightCentre(sourceFrame!, 108);
    const actual = brightCentre(outputFrame!, 108);
    expect(expected.x).toBeLessThan(0.4);
    expect(expected.y).toBeGreaterThan(0.6);
    expect(Math.abs(actual.x - expected.x)).toBeLessThan(0.03);
    expect(Math.abs(actual.y - expected.y)).toBeLessThan(0.03);
  }, 60_000);

  it("tone-maps an HDR (HLG) phone video to SDR BT.709: red stays red, grey stays grey", async () => {
    expect(sources.hdrHlg.probe.dynamicRange).toBe("hlg");
    const messages: string[] = [];
    const clip = await renderClip(
      {
        ...clipOf("hdrHlg", 0, 2, "hdr-hlg"),
        motionPerSecond: [0, 0],
      },
      { faceDetector: null, log: (message) => messages.push(message), temporaryDirectory },
    );
    expect(messages.join("\n")).toMatch(/colours: HDR \(hlg\) tone-mapped to SDR BT\.709/);
    expect(clip.layout).toBe("fit");
    const video = (await ffprobeJson(clip.videoPath)).streams.find((stream) => stream.codec_type === "video");
    expect(video).toMatchObject({ pix_fmt: "yuv420p", color_transfer: "bt709", color_primaries: "bt709" });
    // The 16:9 picture sits across the middle of the 9:16 frame. Read as SDR (before tone
    // mapping), HLG's red came out brick, (151, 65, 32), and its grey dark, 83.
    const red = await colourAt(clip.videoPath, 0.25, 0.5);
    expect(red.r - Math.max(red.g, red.b)).toBeGreaterThan(150);
    const grey = await colourAt(clip.videoPath, 0.75, 0.5);
    expect(Math.max(grey.r, grey.g, grey.b) - Math.min(grey.r, grey.g, grey.b)).toBeLessThan(10);
    expect(grey.g).toBeGreaterThan(90);
    expect(grey.g).toBeLessThan(140);
  }, 60_000);

  it("crops an anamorphic source (non-square pixels) at its displayed shape", async () => {
    expect(sources.anamorphic.probe).toMatchObject({ width: 640, height: 360, codedWidth: 480 });
    const clip = await renderClip(clipOf("anamorphic", 1, 3, "anamorphic"), {
      faceDetector: null,
      log: () => undefined,
      temporaryDirectory,
    });
    expect(clip.layout).toBe("crop");
    // The square is 48/360 of the picture's height: 256 px of the 1920-px-tall clip, 25.6 px in
    // this 1/10-size frame, and as wide. With the stored pixels taken for square ones the
    // 9:16 window took in a third more of the picture and the square came out 19 px wide.
    const [frame] = await greyFrames(clip.videoPath, 1);
    const square = brightExtent(frame!, 108);
    expect(square.height).toBeGreaterThanOrEqual(24);
    expect(square.height).toBeLessThanOrEqual(28);
    expect(Math.abs(square.width - square.height)).toBeLessThanOrEqual(2);
  }, 60_000);

  it("renders a source without audio, with a silent AAC track, using the npm ffmpeg build", async () => {
    const npmBinaries: MediaBinaries = await import("node:module").then(({ createRequire }) => {
      const require = createRequire(import.meta.url);
      return {
        ffmpegPath: (require("@ffmpeg-installer/ffmpeg") as { path: string }).path,
        ffprobePath: (require("@ffprobe-installer/ffprobe") as { path: string }).path,
        source: "npm",
        majorVersion: 4,
      };
    });
    const messages: string[] = [];
    const clip = await renderClip(
      {
        ...clipOf("silentWide", 0, 2, "still-no-audio"),
        // The signal pass saw a still picture: the keyframes settle the layout, no 4 fps pass.
        motionPerSecond: [0, 0],
        transcript: [{ startSeconds: 0, endSeconds: 2, text: "still works" }],
      },
      {
        binaries: npmBinaries,
        faceDetector: null,
        log: (message) => messages.push(message),
        temporaryDirectory,
      },
    );
    expect(sources.silentWide.probe.hasAudio).toBe(false);
    expect(clip).toMatchObject({ layout: "fit", subjectSampling: "keyframes" });
    expect(messages.join("\n")).toMatch(/subject from keyframes: no faces on keyframes and a still picture/);
    expect(messages.join("\n")).toMatch(/layout fit: no faces and no concentrated motion/);
    const probe = await ffprobeJson(clip.videoPath);
    expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({
      width: 1080,
      height: 1920,
    });
    expect(await integratedLoudnessLufs(clip.videoPath)).toBeLessThan(-69);
  }, 60_000);

  it("stops when cancelled, leaving no temporary files and no partial outputs", async () => {
    for (const abortAtFraction of [0.02, 0.3]) {
      const controller = new AbortController();
      const outputDir = path.join(workDirectory, `cancelled-${abortAtFraction}`);
      const result = await renderClip(
        {
          sourcePath: sources.movingBox.path,
          probe: sources.movingBox.probe,
          startSeconds: 0,
          endSeconds: 6,
          sceneCutsSeconds: [],
          outputDir,
          baseName: "cancelled",
          signal: controller.signal,
          onProgress: (fraction) => {
            if (fraction >= abortAtFraction) controller.abort();
          },
        },
        { log: () => undefined, temporaryDirectory },
      ).catch((error: unknown) => error);
      expect(result).toBeInstanceOf(Error);
      expect(controller.signal.aborted).toBe(true);
      expect(await readdir(outputDir).catch(() => [])).toEqual([]);
      expect(await renderTemps()).toEqual([]);
    }
  }, 60_000);

  /**
   * Renders a range of the 2 s vertical source with a probe that promised 10 s (a capture that
   * stopped early): the failure, and whatever the render left in its output and work directories.
   */
  const renderBeyondThePicture = async (startSeconds: number, endSeconds: number, name: string) => {
    const outputDir = path.join(workDirectory, name);
    const failure = await renderClip(
      {
        sourcePath: sources.vertical.path,
        probe: { ...sources.vertical.probe, durationSeconds: 10 },
        startSeconds,
        endSeconds,
        sceneCutsSeconds: [],
        outputDir,
        baseName: name,
      },
      { log: () => undefined, temporaryDirectory },
    ).catch((error: unknown) => error);
    return {
      failure: String(failure),
      outputs: await readdir(outputDir).catch(() => []),
      workDirectories: await renderTemps(),
    };
  };

  it("says where the picture stops when it ends inside the range (a source cut short), leaving nothing behind", async () => {
    // The file's picture ends at 2 s, inside 1–7 s.
    const { failure, outputs, workDirectories } = await renderBeyondThePicture(1, 7, "cut-short");
    expect(failure).toMatch(
      /The render wrote no thumbnail: the source shows no picture at 0:0\d \(its video may be cut short/,
    );
    expect(outputs).toEqual([]);
    expect(workDirectories).toEqual([]);
  }, 60_000);

  it("says the source shows no picture in a range past where its video stops, leaving nothing behind", async () => {
    // The file's picture (and sound) end at 2 s: nothing from 4 s on.
    const { failure, outputs, workDirectories } = await renderBeyondThePicture(4, 7, "past-the-picture");
    expect(failure).toContain(
      "The source shows no picture from 0:04 to 0:07 (its video may be cut short or damaged there)",
    );
    expect(outputs).toEqual([]);
    expect(workDirectories).toEqual([]);
  }, 60_000);

  it("refuses an empty range and a source without video", async () => {
    const input = clipOf("vertical", 1, 1, "empty");
    await expect(renderClip(input)).rejects.toThrow(/range is empty/);
    await expect(
      renderClip({ ...input, endSeconds: 2, probe: { ...input.probe, hasVideo: false } }),
    ).rejects.toThrow(/no video stream/);
  });

  it("prepares for a render without ever failing: a missing ffmpeg is reported by the render itself", async () => {
    const missing = path.join(workDirectory, "no-such-ffmpeg");
    // Callers start it without awaiting (`void`): a rejection here would be unhandled.
    await expect(prepareRenderer(missing)).resolves.toBeUndefined();
    await expect(
      renderClip(clipOf("movingBox", 0, 1, "no-ffmpeg"), {
        binaries: { ...binaries, ffmpegPath: missing },
        faceDetector: null,
        temporaryDirectory,
        log: () => undefined,
      }),
    ).rejects.toThrow(/no-such-ffmpeg/);
  });
});
