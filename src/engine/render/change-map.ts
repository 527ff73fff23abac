/**
 * Where the picture changes: each pixel's mean absolute luma change between consecutive frames
 * looked at (0..255). A face cam's box changes little (a person, a room) while the game around
 * it changes all the time, so the cam's edges show as steps in this map (find-facecam-bounds).
 */
export type ChangeMap = {
  width: number;
  height: number;
  meanChange: Float32Array;
  /** Frame pairs averaged: few make a noisy map. */
  pairs: number;
};

export type ChangeMapAccumulator = {
  /** Adds the change between two consecutive frames' luma (width × height bytes each). */
  add(previous: Uint8Array, current: Uint8Array): void;
  /** The mean so far; null before any pair. */
  result(): ChangeMap | null;
};

export function accumulateChangeMap(width: number, height: number): ChangeMapAccumulator {
  const sum = new Float32Array(width * height);
  let pairs = 0;
  return {
    add(previous, current) {
      for (let index = 0; index < sum.length; index += 1) {
        sum[index]! += Math.abs(current[index]! - previous[index]!);
      }
      pairs += 1;
    },
    result() {
      if (pairs === 0) return null;
      return { width, height, meanChange: sum.map((total) => total / pairs), pairs };
    },
  };
}
