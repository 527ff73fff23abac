/** Seconds a page key moves the timeline's playhead: a tenth of the video, at least 30 s. */
const pageStepSeconds = (durationSeconds: number) => Math.max(30, durationSeconds / 10);

/**
 * Where a key pressed on the interest timeline (a slider) moves the playhead, as ARIA's slider
 * pattern has it: arrows step 5 s (30 s with Shift), Page Up/Down a tenth of the video, Home and
 * End to either end. Null for any other key.
 */
export function timelineKeySeconds(options: {
  key: string;
  shiftKey: boolean;
  currentSeconds: number;
  durationSeconds: number;
}): number | null {
  const { key, currentSeconds, durationSeconds } = options;
  const arrowStep = options.shiftKey ? 30 : 5;
  const moved = (deltaSeconds: number) =>
    Math.min(durationSeconds, Math.max(0, currentSeconds + deltaSeconds));
  switch (key) {
    case "ArrowRight":
    case "ArrowUp":
      return moved(arrowStep);
    case "ArrowLeft":
    case "ArrowDown":
      return moved(-arrowStep);
    case "PageUp":
      return moved(pageStepSeconds(durationSeconds));
    case "PageDown":
      return moved(-pageStepSeconds(durationSeconds));
    case "Home":
      return 0;
    case "End":
      return durationSeconds;
    default:
      return null;
  }
}
