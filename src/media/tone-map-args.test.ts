import { describe, expect, it } from "vitest";
import { buildToneMapFilter } from "./tone-map-args";

describe("buildToneMapFilter", () => {
  it("leaves SDR alone", () => {
    expect(buildToneMapFilter("sdr")).toBeNull();
  });

  it("reads HLG and PQ by name as BT.2020, and ends in 8-bit BT.709", () => {
    const hlg = buildToneMapFilter("hlg")!;
    expect(hlg).toMatch(/^zscale=tin=arib-std-b67:pin=bt2020:min=bt2020nc:t=linear:p=bt709:npl=100,/);
    expect(hlg).toContain("tonemap=tonemap=mobius");
    expect(hlg).toMatch(/zscale=t=bt709:m=bt709:r=tv,format=yuv420p$/);
    expect(buildToneMapFilter("pq")).toBe(hlg.replace("arib-std-b67", "smpte2084"));
  });
});
