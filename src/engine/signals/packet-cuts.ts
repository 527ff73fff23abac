import { median } from "@/engine/curve-math";
import { MIN_SECONDS_BETWEEN_CUTS, SCENE_CUT_THRESHOLD } from "@/media/signal-args";

/**
 * Cuts read from the compressed packet sizes of a fast pass, for sources whose keyframes come
 * at a fixed interval and not on scene changes (hardware encoders such as NVENC, recorders set
 * to a fixed keyframe interval). There a fast pass, which compares keyframes only, reports a cut
 * up to an interval late and sees a montage as one change. But a cut costs its frame nearly a
 * whole picture: the encoder finds nothing to predict it from, so that inter frame is many
 * times its neighbours' size and close to a keyframe's. Nothing is decoded to find it.
 */

/** An inter frame this many times the median of its neighbours within a second… */
const SPIKE_OVER_NEIGHBOURS = 6;
/** …and at least this share of the typical keyframe's size is a cut. */
const SPIKE_SHARE_OF_KEYFRAME = 0.4;
const NEIGHBOURHOOD_SECONDS = 1;
/** Keyframe sizes the typical one is taken from (the latest ones: the content changes). */
const RECENT_KEYFRAMES = 31;

/**
 * Keyframes "come at a fixed interval" when at least this share of the intervals between them
 * is within 10% of the longest, and that interval is long enough to matter.
 */
const REGULAR_INTERVAL_SHARE = 0.75;
const MIN_REGULAR_INTERVAL_SECONDS = 1;

export type PacketCutDetector = {
  pushKey(timeSeconds: number, bytes: number): void;
  pushInter(timeSeconds: number, bytes: number): void;
  /** Times of inter frames that look like cuts, in order. */
  finish(): number[];
};

/**
 * Streams packets in decoding order; holds only the last few seconds of inter frames and the
 * last keyframe sizes, so memory does not grow with the video. A packet is judged once its
 * neighbourhood has arrived (a second later).
 */
export function createPacketCutDetector(): PacketCutDetector {
  const window: { timeSeconds: number; bytes: number }[] = [];
  /** window[first] is the oldest packet kept; window[next] the first not judged yet. */
  let first = 0;
  let next = 0;
  const recentKeyframeBytes: number[] = [];
  let neighbourBytes = new Float64Array(256);
  const cuts: number[] = [];

  const judge = (index: number) => {
    const packet = window[index];
    const typicalKeyframe = median(recentKeyframeBytes);
    if (!packet || typicalKeyframe === undefined) return;
    if (packet.bytes < SPIKE_SHARE_OF_KEYFRAME * typicalKeyframe) return;
    let count = 0;
    for (let other = first; other < window.length; other += 1) {
      const neighbour = window[other];
      if (other === index || !neighbour) continue;
      if (Math.abs(neighbour.timeSeconds - packet.timeSeconds) > NEIGHBOURHOOD_SECONDS) continue;
      if (count === neighbourBytes.length) {
        const grown = new Float64Array(count * 2);
        grown.set(neighbourBytes);
        neighbourBytes = grown;
      }
      neighbourBytes[count] = neighbour.bytes;
      count += 1;
    }
    if (count === 0) return;
    // The median in place: this runs for every packet of a pass, so nothing is allocated.
    const sorted = neighbourBytes.subarray(0, count).sort();
    const middle = Math.floor(count / 2);
    const typicalNeighbour =
      count % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
    if (packet.bytes >= SPIKE_OVER_NEIGHBOURS * typicalNeighbour) cuts.push(packet.timeSeconds);
  };

  const judgeUpTo = (latestSeconds: number) => {
    // Decoding order is presentation order but for a few reordered frames: stop at the first
    // packet not ready yet, it is judged with the next one.
    while (
      next < window.length &&
      (window[next]?.timeSeconds ?? 0) <= latestSeconds - NEIGHBOURHOOD_SECONDS
    ) {
      judge(next);
      next += 1;
    }
    const keepFrom = latestSeconds - 2 * NEIGHBOURHOOD_SECONDS - 0.5;
    while (first < next && (window[first]?.timeSeconds ?? 0) < keepFrom) first += 1;
    if (first > 4096) {
      window.splice(0, first);
      next -= first;
      first = 0;
    }
  };

  return {
    pushKey(_timeSeconds, bytes) {
      recentKeyframeBytes.push(bytes);
      if (recentKeyframeBytes.length > RECENT_KEYFRAMES) recentKeyframeBytes.shift();
    },
    pushInter(timeSeconds, bytes) {
      window.push({ timeSeconds, bytes });
      judgeUpTo(timeSeconds);
    },
    finish() {
      judgeUpTo(Number.POSITIVE_INFINITY);
      return [...cuts].sort((a, b) => a - b);
    },
  };
}

/** Whether the encoder placed keyframes by the clock rather than on scene changes. */
export function hasRegularKeyframes(keyframesSeconds: readonly number[]): boolean {
  const intervals = keyframesSeconds.slice(1).map((time, index) => time - (keyframesSeconds[index] ?? 0));
  // The last interval may be cut short by the end of the video.
  const whole = intervals.slice(0, -1);
  if (whole.length < 2) return false;
  const longest = Math.max(...whole);
  if (longest < MIN_REGULAR_INTERVAL_SECONDS) return false;
  const regular = whole.filter((interval) => interval >= 0.9 * longest).length;
  return regular / whole.length >= REGULAR_INTERVAL_SHARE;
}

/**
 * The fast pass's cuts with the packet cuts added, for a source with regular keyframes (else
 * unchanged). A cut seen at a keyframe with a packet cut since the keyframe before was seen
 * late: the packet cut replaces it, and its scene score moves with it.
 */
export function mergePacketCuts({
  keyframeCutsSeconds,
  packetCutsSeconds,
  keyframesSeconds,
  sceneScore,
}: {
  keyframeCutsSeconds: readonly number[];
  packetCutsSeconds: readonly number[];
  keyframesSeconds: readonly number[];
  sceneScore: readonly number[];
}): { sceneCutsSeconds: number[]; sceneScore: number[] } {
  if (packetCutsSeconds.length === 0 || !hasRegularKeyframes(keyframesSeconds)) {
    return { sceneCutsSeconds: [...keyframeCutsSeconds], sceneScore: [...sceneScore] };
  }
  const scores = [...sceneScore];
  const kept: number[] = [];
  for (const cut of keyframeCutsSeconds) {
    const previousKeyframe = keyframesSeconds.findLast((time) => time < cut - 1e-3) ?? 0;
    const seenLate = packetCutsSeconds.some((time) => time > previousKeyframe && time <= cut + 1e-3);
    if (!seenLate) {
      kept.push(cut);
      continue;
    }
    const second = Math.floor(cut);
    const score = scores[second] ?? 0;
    // In a fast pass a keyframe's second scores only that keyframe's change.
    scores[second] = 0;
    for (const time of packetCutsSeconds) {
      const packetSecond = Math.floor(time);
      if (time > previousKeyframe && time <= cut + 1e-3 && packetSecond < scores.length) {
        scores[packetSecond] = Math.max(scores[packetSecond] ?? 0, score);
      }
    }
  }
  for (const time of packetCutsSeconds) {
    const second = Math.floor(time);
    if (second < scores.length) scores[second] = Math.max(scores[second] ?? 0, SCENE_CUT_THRESHOLD);
  }
  const merged = [...kept, ...packetCutsSeconds].sort((a, b) => a - b);
  const sceneCutsSeconds = merged.filter(
    (time, index) => index === 0 || time - (merged[index - 1] ?? 0) >= MIN_SECONDS_BETWEEN_CUTS,
  );
  return { sceneCutsSeconds, sceneScore: scores };
}
