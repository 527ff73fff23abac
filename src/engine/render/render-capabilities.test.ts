import { describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { getRenderCapabilities } from "./render-capabilities";

const { ffmpegPath } = resolveMediaBinaries();

describe("getRenderCapabilities", () => {
  it("finds libass, libwebp, loudnorm and the tone-mapping filters in this ffmpeg, once", async () => {
    const capabilities = await getRenderCapabilities(ffmpegPath);
    expect(capabilities).toEqual({ subtitles: true, animatedWebp: true, loudnorm: true, toneMapping: true });
    expect(getRenderCapabilities(ffmpegPath)).toBe(getRenderCapabilities(ffmpegPath));
  });
});
