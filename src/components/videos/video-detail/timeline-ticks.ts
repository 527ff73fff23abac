/** Round steps between ticks, seconds: the first that makes at most six of them is used. */
const TICK_STEPS_SECONDS = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
/**
 * The end is labelled right-aligned, so a round tick closer to it than this share of a step
 * would run into its label (0:40 beside 0:45 on a phone): that tick is left out.
 */
const END_CLEARANCE_STEPS = 0.75;

/** About five round-numbered ticks across the video, always including both ends. */
export function tickSeconds(durationSeconds: number): number[] {
  const step =
    TICK_STEPS_SECONDS.find((candidate) => durationSeconds / candidate <= 6) ?? TICK_STEPS_SECONDS.at(-1)!;
  const end = Math.floor(durationSeconds);
  const ticks = [0];
  for (let seconds = step; seconds <= durationSeconds - step * END_CLEARANCE_STEPS; seconds += step) {
    ticks.push(seconds);
  }
  if (end > 0) ticks.push(end);
  return ticks;
}
