import { describe, expect, it } from "vitest";
import { buildProxyArgs } from "./build-proxy-args";

const base = { sourcePath: "/in/source.mov", outputPath: "/tmp/x/proxy.mp4", framesPerSecond: 1 };

describe("buildProxyArgs", () => {
  it("samples video at Gemini's rate, scales the short side to 360 px and keeps mono 16 kHz audio", () => {
    expect(buildProxyArgs({ ...base, hasVideo: true, hasAudio: true })).toEqual([
      ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y"],
      // Unreferenced frames left undecoded (a frame a second needs only the others).
      ...["-skip_frame:v", "noref", "-i", "/in/source.mov"],
      ...["-map", "0:v:0", "-vf"],
      "fps=1,scale='if(gte(iw,ih),-2,min(360,iw))':'if(gte(iw,ih),min(360,ih),-2)'",
      ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "32", "-pix_fmt", "yuv420p"],
      ...["-map", "0:a:0", "-ac", "1", "-ar", "16000", "-c:a", "aac", "-b:a", "32k"],
      ...["-sn", "-dn", "-map_metadata", "-1", "-f", "mp4", "/tmp/x/proxy.mp4"],
    ]);
  });

  it("leaves out the missing stream", () => {
    const videoOnly = buildProxyArgs({ ...base, hasVideo: true, hasAudio: false });
    expect(videoOnly).not.toContain("0:a:0");
    expect(videoOnly).toContain("0:v:0");
    const audioOnly = buildProxyArgs({ ...base, hasVideo: false, hasAudio: true });
    expect(audioOnly).not.toContain("0:v:0");
    expect(audioOnly).not.toContain("libx264");
    expect(audioOnly).not.toContain("-skip_frame:v");
    expect(audioOnly).toContain("0:a:0");
  });

  it("tone-maps an HDR source after shrinking it", () => {
    const args = buildProxyArgs({ ...base, hasVideo: true, hasAudio: true, toneMapFilter: "TONEMAP" });
    expect(args[args.indexOf("-vf") + 1]).toMatch(/^fps=1,scale=.*,TONEMAP$/);
  });

  it("writes fractional sample rates for long videos", () => {
    const args = buildProxyArgs({ ...base, hasVideo: true, hasAudio: true, framesPerSecond: 0.3333333 });
    expect(args[args.indexOf("-vf") + 1]).toMatch(/^fps=0\.333,/);
  });

  it("refuses a source with nothing to send and a zero rate", () => {
    expect(() => buildProxyArgs({ ...base, hasVideo: false, hasAudio: false })).toThrow(
      /neither video nor audio/,
    );
    expect(() => buildProxyArgs({ ...base, hasVideo: true, hasAudio: true, framesPerSecond: 0 })).toThrow(
      /framesPerSecond/,
    );
  });
});
