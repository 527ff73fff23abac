import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stallMessage, startStallWatchdog } from "./stall-watchdog";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("startStallWatchdog", () => {
  it("fires once when no progress comes within the stall window", () => {
    const onStall = vi.fn();
    startStallWatchdog({ stallMs: 30_000, onStall });
    vi.advanceTimersByTime(29_999);
    expect(onStall).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStall).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(120_000);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  it("lets a slow upload that keeps moving run far past the window", () => {
    const onStall = vi.fn();
    const watchdog = startStallWatchdog({ stallMs: 30_000, onStall });
    for (let second = 0; second < 600; second += 20) {
      vi.advanceTimersByTime(20_000);
      watchdog.progress();
    }
    expect(onStall).not.toHaveBeenCalled();
    // …until the bytes stop.
    vi.advanceTimersByTime(30_000);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  it("stays quiet once stopped", () => {
    const onStall = vi.fn();
    const watchdog = startStallWatchdog({ stallMs: 30_000, onStall });
    vi.advanceTimersByTime(10_000);
    watchdog.stop();
    watchdog.progress();
    vi.advanceTimersByTime(120_000);
    expect(onStall).not.toHaveBeenCalled();
  });

  it("uses the timers it is given", () => {
    const scheduled: { callback: () => void; ms: number }[] = [];
    const onStall = vi.fn();
    startStallWatchdog({
      stallMs: 5_000,
      onStall,
      timers: {
        setTimeout: (callback, ms) => scheduled.push({ callback, ms }),
        clearTimeout: () => {},
      },
    });
    expect(scheduled.map((timer) => timer.ms)).toEqual([5_000]);
    scheduled[0]!.callback();
    expect(onStall).toHaveBeenCalledTimes(1);
  });
});

describe("stallMessage", () => {
  it("says what happened and what to do, in seconds", () => {
    expect(stallMessage(30_000)).toBe(
      "The upload stalled: no data went through for 30 s. Check your connection and try again.",
    );
  });
});
