import { describe, expect, it } from "vitest";
import {
  buildToneMapFilter,
  buildToneMapLattice,
  buildToneMapLatticeArgs,
  formatToneMapCube,
} from "./tone-map-args";

/** The (red, green, blue) 16-bit levels of one lattice pixel, from its G, B, R planes. */
function latticeColour(lattice: { data: Buffer; width: number; height: number }, index: number) {
  const count = lattice.width * lattice.height;
  const level = (plane: number) => lattice.data.readUInt16LE((plane * count + index) * 2);
  return { red: level(2), green: level(0), blue: level(1) };
}

describe("buildToneMapLattice", () => {
  it("holds every colour of the grid once, red fastest, then green, then blue (a .cube file's order)", () => {
    const lattice = buildToneMapLattice(3);
    expect(lattice).toMatchObject({ width: 9, height: 3 });
    expect(lattice.data.byteLength).toBe(27 * 3 * 2);
    expect(latticeColour(lattice, 0)).toEqual({ red: 0, green: 0, blue: 0 });
    expect(latticeColour(lattice, 1)).toEqual({ red: 32768, green: 0, blue: 0 });
    expect(latticeColour(lattice, 2)).toEqual({ red: 65535, green: 0, blue: 0 });
    expect(latticeColour(lattice, 3)).toEqual({ red: 0, green: 32768, blue: 0 });
    expect(latticeColour(lattice, 9)).toEqual({ red: 0, green: 0, blue: 32768 });
    expect(latticeColour(lattice, 26)).toEqual({ red: 65535, green: 65535, blue: 65535 });
    const seen = new Set(
      Array.from({ length: 27 }, (_, index) => JSON.stringify(latticeColour(lattice, index))),
    );
    expect(seen.size).toBe(27);
  });
});

describe("formatToneMapCube", () => {
  it("writes one R G B row per lattice colour from G, B, R float planes, clipped to 0..1", () => {
    // A 2-point lattice has 8 colours; each plane holds 8 floats.
    const green = [0, 0.25, 0, 0, 0, 0, 0, 1];
    const blue = [0, 0, 0, 0, -0.11, 0, 0, 1];
    const red = [0, 0.5, 0, 0, 1.2, 0, 0, 1];
    const planes = Buffer.from(new Float32Array([...green, ...blue, ...red]).buffer);
    const rows = formatToneMapCube(2, planes).trimEnd().split("\n");
    expect(rows).toHaveLength(9);
    expect(rows[0]).toBe("LUT_3D_SIZE 2");
    expect(rows[1]).toBe("0.000000 0.000000 0.000000");
    expect(rows[2]).toBe("0.500000 0.250000 0.000000");
    // Out of BT.709's gamut (negative blue) and above white: clipped per channel.
    expect(rows[5]).toBe("1.000000 0.000000 0.000000");
    expect(rows[8]).toBe("1.000000 1.000000 1.000000");
  });

  it("refuses mapped colours that do not fill the lattice", () => {
    expect(() => formatToneMapCube(2, Buffer.alloc(8 * 3 * 4 - 4))).toThrow(/Expected 96 bytes/);
  });
});

describe("buildToneMapLatticeArgs", () => {
  it("maps the raw lattice through zscale and tonemap with the range's transfer, raw floats out", () => {
    const hlg = buildToneMapLatticeArgs({
      dynamicRange: "hlg",
      size: 33,
      latticePath: "in",
      outputPath: "out",
    });
    expect(hlg.join(" ")).toContain("-f rawvideo -pix_fmt gbrp16le -s 1089x33 -i in");
    const chain = hlg[hlg.indexOf("-vf") + 1]!;
    expect(chain).toMatch(/^zscale=tin=arib-std-b67:pin=bt2020:t=linear:p=bt709:npl=100,/);
    expect(chain).toContain("tonemap=tonemap=mobius");
    expect(chain).toMatch(/zscale=t=bt709,format=gbrpf32le$/);
    expect(hlg.slice(-3)).toEqual(["-f", "rawvideo", "out"]);
    const pq = buildToneMapLatticeArgs({
      dynamicRange: "pq",
      size: 33,
      latticePath: "in",
      outputPath: "out",
    });
    expect(pq[pq.indexOf("-vf") + 1]).toBe(chain.replace("arib-std-b67", "smpte2084"));
  });
});

describe("buildToneMapFilter", () => {
  it("reads the picture as BT.2020 at 16 bits, applies the LUT, and ends in 8-bit limited BT.709", () => {
    const filter = buildToneMapFilter("/tmp/work, 1/hlg.cube");
    expect(filter).toBe(
      "scale=in_color_matrix=bt2020,format=gbrp16le," +
        "lut3d=file=/tmp/work\\, 1/hlg.cube:interp=tetrahedral," +
        "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
    );
  });
});
