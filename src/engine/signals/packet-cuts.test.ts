import { describe, expect, it } from "vitest";
import { createPacketCutDetector, hasRegularKeyframes, mergePacketCuts } from "./packet-cuts";

/** 30 fps packets for `seconds`: keyframes (5000 B) every `keyframeEverySeconds`, inter frames 100 B. */
function packets(seconds: number, keyframeEverySeconds: number, spikes: Record<number, number> = {}) {
  const list: { timeSeconds: number; bytes: number; key: boolean }[] = [];
  for (let frame = 0; frame < seconds * 30; frame += 1) {
    const timeSeconds = Math.round((frame / 30) * 1000) / 1000;
    const key = frame % (keyframeEverySeconds * 30) === 0;
    list.push({ timeSeconds, bytes: key ? 5000 : (spikes[frame] ?? 100), key });
  }
  return list;
}

function detect(list: ReturnType<typeof packets>): number[] {
  const detector = createPacketCutDetector();
  for (const packet of list) {
    if (packet.key) detector.pushKey(packet.timeSeconds, packet.bytes);
    else detector.pushInter(packet.timeSeconds, packet.bytes);
  }
  return detector.finish();
}

describe("createPacketCutDetector", () => {
  it("finds inter frames that cost nearly a picture: many times their neighbours, near a keyframe's size", () => {
    // Frame 300 (10 s): a cut (3000 B). Frame 450: a flash of motion (700 B, 7× but 14% of a keyframe).
    expect(detect(packets(20, 8, { 300: 3000, 450: 700 }))).toEqual([10]);
  });

  it("finds nothing where every frame is large (steady motion), and nothing before a keyframe is seen", () => {
    const moving = packets(20, 8).map((packet) => (packet.key ? packet : { ...packet, bytes: 2500 }));
    expect(detect(moving)).toEqual([]);
    const detector = createPacketCutDetector();
    detector.pushInter(0.5, 100);
    detector.pushInter(0.6, 9000);
    detector.pushInter(0.7, 100);
    expect(detector.finish()).toEqual([]);
  });

  it("finds every cut of a montage (one every 0.4 s)", () => {
    const spikes: Record<number, number> = {};
    for (let frame = 302; frame < 420; frame += 12) spikes[frame] = 2500;
    expect(detect(packets(20, 8, spikes))).toHaveLength(10);
  });
});

describe("hasRegularKeyframes", () => {
  it("tells a fixed interval from keyframes placed on scene changes", () => {
    expect(hasRegularKeyframes([0, 8, 16, 24, 32, 35])).toBe(true);
    // x264's default: every 8.3 s, and on scene changes (10 s, 30 s, 31 s).
    expect(hasRegularKeyframes([0, 8.333, 10, 18.333, 26.667, 30, 31, 39.333])).toBe(false);
    // Every half second: the fast pass already sees each cut within half a second.
    expect(hasRegularKeyframes([0, 0.5, 1, 1.5, 2, 2.5])).toBe(false);
    expect(hasRegularKeyframes([0, 8])).toBe(false);
  });
});

describe("mergePacketCuts", () => {
  const sceneScore = Array.from({ length: 40 }, (_, second) => (second === 16 ? 0.6 : 0));

  it("replaces a cut seen late at a keyframe with the packet cut before it, moving its score", () => {
    const merged = mergePacketCuts({
      keyframeCutsSeconds: [16],
      packetCutsSeconds: [10.5, 20.2],
      keyframesSeconds: [0, 8, 16, 24, 32, 40],
      sceneScore,
    });
    expect(merged.sceneCutsSeconds).toEqual([10.5, 20.2]);
    expect(merged.sceneScore[10]).toBe(0.6);
    expect(merged.sceneScore[16]).toBe(0);
    expect(merged.sceneScore[20]).toBe(0.2);
  });

  it("keeps a keyframe cut with no packet cut before it (a fade), and ignores packets for irregular keyframes", () => {
    const fade = mergePacketCuts({
      keyframeCutsSeconds: [16],
      packetCutsSeconds: [20.2],
      keyframesSeconds: [0, 8, 16, 24, 32, 40],
      sceneScore,
    });
    expect(fade.sceneCutsSeconds).toEqual([16, 20.2]);
    const irregular = mergePacketCuts({
      keyframeCutsSeconds: [10],
      packetCutsSeconds: [20.2],
      keyframesSeconds: [0, 8.333, 10, 18.333, 26.667, 30, 31, 39.333],
      sceneScore,
    });
    expect(irregular).toEqual({ sceneCutsSeconds: [10], sceneScore });
  });
});
