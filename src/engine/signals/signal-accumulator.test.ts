import { describe, expect, it } from "vitest";
import { createSignalAccumulator, estimateFastModeMotion, spreadKeyframeMotion } from "./signal-accumulator";

const address = "0x55d1c0a8e940";
const meta = (filter: string, time: number, key: string, value: string | number) => [
  `[${filter} @ ${address}] frame:${Math.round(time * 10)}    pts:${Math.round(time * 48000)}  pts_time:${time}`,
  `[${filter} @ ${address}] ${key}=${value}`,
];
const rms = (time: number, value: string | number) =>
  meta("ametadata@rms", time, "lavfi.astats.Overall.RMS_level", value);
const peak = (time: number, value: number) =>
  meta("ametadata@peak", time, "lavfi.astats.Overall.Peak_level", value);
const lufs = (time: number, value: number) => meta("ametadata@lufs", time, "lavfi.r128.M", value);
const voice = (time: number, value: number) =>
  meta("ametadata@voice", time, "lavfi.astats.Overall.RMS_level", value);
const scene = (time: number, value: number) => meta("metadata@scene", time, "lavfi.scd.score", value);
const motion = (time: number, value: number) =>
  meta("metadata@motion", time, "lavfi.signalstats.YAVG", value);

function accumulate(
  lines: string[],
  options: { mode?: "fast" | "full"; durationSeconds?: number; hasAudio?: boolean } = {},
) {
  const accumulator = createSignalAccumulator({
    mode: options.mode ?? "full",
    durationSeconds: options.durationSeconds ?? 3,
    hasAudio: options.hasAudio ?? true,
    sceneScoreScale: 100,
  });
  for (const line of lines) accumulator.pushLine(line);
  return accumulator;
}

describe("createSignalAccumulator", () => {
  it("averages 100 ms RMS as power, keeps the highest peak and momentary loudness per second", () => {
    const lines = [
      ...rms(0, -20),
      ...rms(0.1, "-inf"),
      ...rms(1.0, -30),
      ...rms(2.5, -40),
      ...peak(0, -6),
      ...peak(0.5, -3),
      ...lufs(0.3, -120.7),
      ...lufs(0.9, -18),
      ...lufs(1.2, -25),
      ...lufs(2.9, -31),
    ];
    const curve = accumulate(lines).finish();
    // Power mean of −20 dB and −90 dB: half the power of −20 dB, i.e. about −23 dB.
    expect(curve.rmsDb[0]).toBeCloseTo(-23.01, 1);
    expect(curve.rmsDb).toEqual([expect.any(Number), -30, -40]);
    expect(curve.peakDb[0]).toBe(-3);
    expect(curve.peakDb[1]).toBe(-90);
    // ebur128's warm-up value (−120.7) is floored at −70; the max of the second wins.
    expect(curve.momentaryLufs).toEqual([-18, -25, -31]);
  });

  it("measures the spread of 100 ms levels and the voice-band ratio per second", () => {
    const lines: string[] = [];
    for (let tenth = 0; tenth < 10; tenth += 1) {
      const time = tenth / 10;
      lines.push(...rms(time, tenth % 2 === 0 ? -20 : -40), ...voice(time, tenth % 2 === 0 ? -21 : -41));
      lines.push(...rms(1 + time, -30), ...voice(1 + time, -38));
    }
    const curve = accumulate(lines, { durationSeconds: 2 }).finish();
    expect(curve.loudnessSwingDb?.[0]).toBeCloseTo(10, 5);
    expect(curve.loudnessSwingDb?.[1]).toBe(0);
    expect(curve.voiceBandRatioDb?.[0]).toBeCloseTo(-1, 0);
    expect(curve.voiceBandRatioDb?.[1]).toBeCloseTo(-8, 5);
  });

  it("scales scene scores to 0..1, calls cuts at the threshold and merges cuts closer than 0.25 s", () => {
    const lines = [
      ...scene(0, 90),
      ...scene(1.1, 35),
      ...scene(1.2, 40),
      ...scene(1.6, 5),
      ...scene(2.4, 19.9),
    ];
    const curve = accumulate(lines).finish();
    expect(curve.sceneScore).toEqual([0.9, 0.4, 0.199]);
    // The first frame has nothing to differ from; 1.2 s is the same cut as 1.1 s; 19.9 < 20.
    expect(curve.sceneCutsSeconds).toEqual([1.1]);
  });

  it("averages motion (YAVG / 255) over the frames of each second in full mode", () => {
    const curve = accumulate([...motion(0.1, 25.5), ...motion(0.2, 51), ...motion(1.5, 2.55)]).finish();
    expect(curve.motion).toEqual([0.15, 0.01, 0]);
  });

  it("pairs silence_start and silence_end lines and closes a silence still open at the end", () => {
    const curve = accumulate([
      "[silencedetect @ 0x1] silence_start: 0.5",
      "[silencedetect @ 0x1] silence_end: 1.25 | silence_duration: 0.75",
      "[silencedetect @ 0x1] silence_start: 2.4",
      ...rms(2.9, -80),
    ]).finish();
    expect(curve.silences).toEqual([
      { startSeconds: 0.5, endSeconds: 1.25 },
      { startSeconds: 2.4, endSeconds: 3 },
    ]);
  });

  it("shortens the curve when the audio stops well before the stated duration (a truncated file)", () => {
    const lines = Array.from({ length: 40 }, (_, tenth) => rms(tenth / 10, -20)).flat();
    const curve = accumulate(lines, { durationSeconds: 10 }).finish();
    expect(curve.durationSeconds).toBe(4);
    expect(curve.rmsDb).toHaveLength(4);
  });

  it("gives a silent source floors and no audio-derived arrays", () => {
    const curve = accumulate([...motion(0.5, 10), ...motion(1.5, 10), ...motion(2.9, 10)], {
      hasAudio: false,
    }).finish();
    expect(curve.rmsDb).toEqual([-90, -90, -90]);
    expect(curve.momentaryLufs).toEqual([-70, -70, -70]);
    expect(curve.silences).toEqual([]);
    expect(curve.loudnessSwingDb).toBeUndefined();
  });

  it("covers a one-second source with one value per array", () => {
    const curve = accumulate([...rms(0, -20), ...motion(0.5, 5)], { durationSeconds: 1 }).finish();
    expect(curve.rmsDb).toHaveLength(1);
    expect(curve.motion).toHaveLength(1);
  });

  it("ignores unrelated log lines and garbage values", () => {
    const accumulator = accumulate([
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'x.mp4':",
      "[Parsed_ebur128_4 @ 0x1] Summary:",
      "[ametadata@rms @ 0x1] lavfi.astats.Overall.RMS_level=-20",
      ...rms(0.1, "nan"),
    ]);
    expect(accumulator.finish().rmsDb).toEqual([-90, -90, -90]);
  });

  it("estimates fast-mode motion from the packet listing, ignoring keyframe bytes", () => {
    const accumulator = accumulate([...motion(2, 25.5), ...motion(4, 25.5)], {
      mode: "fast",
      durationSeconds: 4,
    });
    accumulator.pushPacketLine("#tb 0: 1/1000");
    // Second 0: a keyframe plus two small frames; second 1: two frames; 2: big frames; 3: same as 1.
    const packets = [
      [0, 50_000, "K"],
      [300, 1_000],
      [600, 1_000],
      [1000, 1_000],
      [1500, 1_000],
      [2000, 8_000, "K"],
      [2500, 8_000],
      [3000, 1_000],
      [3500, 1_000],
    ] as const;
    for (const [time, size, key] of packets) {
      accumulator.pushPacketLine(`0, ${time}, ${time}, 33, ${size}, 0xdeadbeef${key ? "" : ", F=0x0"}`);
    }
    const curve = accumulator.finish();
    // Level = typical keyframe difference (0.1) / 10 = 0.01. Bytes per second: 3000 (the two
    // small frames scaled to three), 2000, 16000, 2000; median 2500.
    expect(curve.motion).toEqual([0.012, 0.008, 0.064, 0.008]);
    // The key packets' times, for renders to judge keyframe spacing without decoding.
    expect(curve.keyframesSeconds).toEqual([0, 2]);
  });

  it("takes fast-mode motion's level from keyframe pairs without a cut between them", () => {
    // Keyframes 4 s apart: two pairs show some motion (YAVG 12.75 = 0.05), two a cut (0.5).
    const accumulator = accumulate(
      [
        ...[0, 4, 8, 12, 16].flatMap((time) => scene(time, time === 8 || time === 16 ? 80 : 1)),
        ...motion(0, 0),
        ...motion(4, 12.75),
        ...motion(8, 127.5),
        ...motion(12, 12.75),
        ...motion(16, 127.5),
      ],
      { mode: "fast", durationSeconds: 17, hasAudio: false },
    );
    accumulator.pushPacketLine("#tb 0: 1/1000");
    // The same bytes every second: the motion is the level throughout.
    for (let time = 0; time < 17_000; time += 500) {
      const key = time % 4000 === 0 ? "" : ", F=0x0";
      accumulator.pushPacketLine(`0, ${time}, ${time}, 33, 1000, 0xdeadbeef${key}`);
    }
    const curve = accumulator.finish();
    expect(curve.sceneCutsSeconds).toEqual([8, 16]);
    // 0.05 / KEYFRAME_DIFFERENCE_PER_MOTION; with the cuts in the median it would be 0.05 (the cap).
    expect(curve.motion[1]).toBeCloseTo(0.005, 4);
    expect(curve.motion[10]).toBeCloseTo(0.005, 4);
  });

  it("reads MPEG-TS packet lines, whose side data follows the flags", () => {
    const accumulator = accumulate([], { mode: "fast", durationSeconds: 3 });
    accumulator.pushPacketLine("#tb 0: 1/90000");
    // As ffmpeg lists a stream capture's packets: the key packet has no F=, only `S=1, size`.
    accumulator.pushPacketLine("0,      -6000,          0,     3000,     7330, 0x7fdb530e, S=1,        1");
    accumulator.pushPacketLine(
      "0,      -3000,       9000,     3000,      812, 0x1b2c3d4e, F=0x0, S=1,        1",
    );
    accumulator.pushPacketLine("0,     180000,     180000,     3000,     6100, 0x2b2c3d4e, S=1,        1");
    expect(accumulator.finish().keyframesSeconds).toEqual([0, 2]);
  });
});

describe("spreadKeyframeMotion", () => {
  it("gives each second the difference of the keyframe that closes its gap", () => {
    const points = [
      { atSeconds: 2, value: 0.1 },
      { atSeconds: 5, value: 0.3 },
    ];
    expect(spreadKeyframeMotion(points, 7)).toEqual([0.1, 0.1, 0.3, 0.3, 0.3, 0.3, 0.3]);
    expect(spreadKeyframeMotion([], 2)).toEqual([0, 0]);
  });
});

describe("estimateFastModeMotion", () => {
  it("falls back to keyframe differences where bytes are unknown", () => {
    const motion = estimateFastModeMotion({
      keyframeMotion: [0.05, 0.05, 0.2],
      bytesPerSecond: [],
      seconds: 3,
    });
    expect(motion).toEqual([0.005, 0.005, 0.02]);
  });

  it("keeps a still video still", () => {
    expect(
      estimateFastModeMotion({ keyframeMotion: [0, 0], bytesPerSecond: [100, 100], seconds: 2 }),
    ).toEqual([0, 0]);
  });
});
