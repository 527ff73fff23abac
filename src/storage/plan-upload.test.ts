import { describe, expect, it } from "vitest";
import { MAX_PART_COUNT, partRange, planUpload } from "./plan-upload";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe("planUpload", () => {
  it("uses one PUT up to and including the threshold", () => {
    expect(
      planUpload({ sizeBytes: 64 * MiB, multipartThresholdBytes: 64 * MiB, partSizeBytes: 16 * MiB }),
    ).toEqual({
      kind: "single",
      sizeBytes: 64 * MiB,
    });
  });

  it("splits larger files into parts of the configured size, the last one shorter", () => {
    const plan = planUpload({
      sizeBytes: 64 * MiB + 1,
      multipartThresholdBytes: 64 * MiB,
      partSizeBytes: 16 * MiB,
    });
    expect(plan).toEqual({
      kind: "multipart",
      sizeBytes: 64 * MiB + 1,
      partSizeBytes: 16 * MiB,
      partCount: 5,
    });
    if (plan.kind !== "multipart") throw new Error("expected multipart");
    expect(partRange(plan, 5)).toEqual({ startByte: 64 * MiB, endByte: 64 * MiB + 1, sizeBytes: 1 });
    expect(partRange(plan, 1)).toEqual({ startByte: 0, endByte: 16 * MiB, sizeBytes: 16 * MiB });
  });

  it("grows the part size for huge files so the part count stays within the limit", () => {
    const plan = planUpload({
      sizeBytes: 50 * GiB,
      multipartThresholdBytes: 64 * MiB,
      partSizeBytes: 16 * MiB,
    });
    if (plan.kind !== "multipart") throw new Error("expected multipart");
    expect(plan.partCount).toBeLessThanOrEqual(MAX_PART_COUNT);
    expect(plan.partSizeBytes % MiB).toBe(0);
    expect(plan.partSizeBytes * plan.partCount).toBeGreaterThanOrEqual(50 * GiB);
  });

  it("covers every byte exactly once", () => {
    const plan = planUpload({
      sizeBytes: 23 * MiB + 777,
      multipartThresholdBytes: 5 * MiB,
      partSizeBytes: 5 * MiB,
    });
    if (plan.kind !== "multipart") throw new Error("expected multipart");
    let next = 0;
    for (let partNumber = 1; partNumber <= plan.partCount; partNumber++) {
      const range = partRange(plan, partNumber);
      expect(range.startByte).toBe(next);
      next = range.endByte;
    }
    expect(next).toBe(plan.sizeBytes);
    expect(() => partRange(plan, plan.partCount + 1)).toThrow(/outside/);
  });

  it("refuses empty or fractional sizes", () => {
    expect(() =>
      planUpload({ sizeBytes: 0, multipartThresholdBytes: 5 * MiB, partSizeBytes: 5 * MiB }),
    ).toThrow();
    expect(() =>
      planUpload({ sizeBytes: 1.5, multipartThresholdBytes: 5 * MiB, partSizeBytes: 5 * MiB }),
    ).toThrow();
  });
});
