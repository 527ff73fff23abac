import { describe, expect, it } from "vitest";
import {
  DEFAULT_MOMENT_OPTIONS,
  DEFAULT_SCORING_WEIGHTS,
  describeTooShortToClip,
  resolveMomentOptions,
} from "./defaults";

describe("resolveMomentOptions", () => {
  it("fills the defaults: top 5 clips of 15–60 s", () => {
    expect(resolveMomentOptions()).toEqual(DEFAULT_MOMENT_OPTIONS);
    expect(DEFAULT_MOMENT_OPTIONS).toMatchObject({ topN: 5, minSeconds: 15, maxSeconds: 60 });
    expect(DEFAULT_MOMENT_OPTIONS.weights).toBe(DEFAULT_SCORING_WEIGHTS);
  });

  it("accepts valid overrides and refuses the rest", () => {
    expect(resolveMomentOptions({ topN: 20, minSeconds: 5, maxSeconds: 10 })).toMatchObject({
      topN: 20,
      minSeconds: 5,
      maxSeconds: 10,
    });
    expect(resolveMomentOptions({ minSeconds: 90 }).maxSeconds).toBe(90);
    expect(() => resolveMomentOptions({ topN: 21 })).toThrow(/between 1 and 20/);
    expect(() => resolveMomentOptions({ topN: 0 })).toThrow();
    expect(() => resolveMomentOptions({ minSeconds: 30, maxSeconds: 20 })).toThrow(/at least minSeconds/);
  });

  it("holds clip lengths to the web app's 3–180 s", () => {
    expect(resolveMomentOptions({ minSeconds: 3, maxSeconds: 180 })).toMatchObject({
      minSeconds: 3,
      maxSeconds: 180,
    });
    expect(() => resolveMomentOptions({ minSeconds: 2.5 })).toThrow(
      /minSeconds must be between 3 and 180 seconds/,
    );
    expect(() => resolveMomentOptions({ maxSeconds: 181 })).toThrow(
      /maxSeconds must be between 3 and 180 seconds/,
    );
    expect(() => resolveMomentOptions({ minSeconds: 200 })).toThrow(/minSeconds must be between 3 and 180/);
  });
});

describe("describeTooShortToClip", () => {
  it("refuses a video under 3 s, in the words the worker uses, and passes the rest", () => {
    expect(describeTooShortToClip(2.04)).toBe("This video is 2 s long; a clip needs at least 3 s.");
    expect(describeTooShortToClip(0.04)).toBe("This video is 0 s long; a clip needs at least 3 s.");
    expect(describeTooShortToClip(3)).toBeNull();
    expect(describeTooShortToClip(600)).toBeNull();
  });
});
