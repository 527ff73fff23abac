import { describe, expect, it } from "vitest";
import { createProgressMeter } from "./progress-meter";

describe("createProgressMeter", () => {
  it("measures speed over the recent window and estimates time left", () => {
    const meter = createProgressMeter({ totalBytes: 100_000_000, windowMs: 4_000 });
    expect(meter.update(0, 0).secondsLeft).toBeNull();
    meter.update(10_000_000, 1_000);
    const reading = meter.update(20_000_000, 2_000);
    expect(reading.bytesPerSecond).toBe(10_000_000);
    expect(reading.secondsLeft).toBe(8);
    expect(reading.fraction).toBe(0.2);
  });

  it("follows a slower connection once old samples leave the window", () => {
    const meter = createProgressMeter({ totalBytes: 100_000_000, windowMs: 2_000 });
    meter.update(0, 0);
    meter.update(50_000_000, 1_000);
    for (let second = 2; second <= 6; second++)
      meter.update(50_000_000 + (second - 1) * 1_000_000, second * 1_000);
    expect(meter.read(6_000).bytesPerSecond).toBeCloseTo(1_000_000, -3);
  });

  it("never goes backwards (a retried part restarts its own count) and ends at zero left", () => {
    const meter = createProgressMeter({ totalBytes: 1_000 });
    meter.update(800, 0);
    expect(meter.update(500, 1_000).loadedBytes).toBe(800);
    expect(meter.update(1_000, 2_000)).toMatchObject({ fraction: 1, secondsLeft: 0 });
  });

  it("starts from the bytes already stored when resuming", () => {
    const meter = createProgressMeter({ totalBytes: 1_000, startBytes: 600 });
    expect(meter.read(0).fraction).toBe(0.6);
  });
});
