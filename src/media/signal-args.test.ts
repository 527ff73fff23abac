import { describe, expect, it } from "vitest";
import { buildAudioSignalChains, buildSignalArgs, buildVideoSignalChain, SIGNAL_LABELS } from "./signal-args";

const base = { input: "/videos/in.mp4", hasAudio: true, hasVideo: true, ffmpegMajorVersion: 5 } as const;

describe("buildSignalArgs", () => {
  it("builds one full pass: every frame at 10 fps, audio and video graphs, output discarded", () => {
    const args = buildSignalArgs({ ...base, mode: "full" });
    expect(args.slice(0, 6)).toEqual([
      "-hide_banner",
      "-nostdin",
      "-loglevel",
      "repeat+info",
      "-nostats",
      "-i",
    ]);
    expect(args).toContain("file:/videos/in.mp4");
    expect(args).not.toContain("-skip_frame:v");
    const graph = args[args.indexOf("-filter_complex") + 1] ?? "";
    expect(graph).toMatch(
      /^\[0:a:0\].*\[audio\];\[forvoice\].*\[voiceband\];\[0:v:0\]fps=10,scale=160:90.*\[video\]$/,
    );
    expect(args.slice(-5)).toEqual(["-sn", "-dn", "-f", "null", "-"]);
    expect(args.filter((arg) => arg === "-map")).toHaveLength(3);
  });

  it("decodes keyframes only in fast mode and lists the packets on stdout", () => {
    const args = buildSignalArgs({ ...base, mode: "fast" });
    const input = args.indexOf("-i");
    expect(args.slice(input - 2, input)).toEqual(["-skip_frame:v", "nokey"]);
    expect(args.slice(-7)).toEqual(["-map", "0:v:0", "-c:v", "copy", "-f", "framecrc", "pipe:1"]);
    const graph = args[args.indexOf("-filter_complex") + 1] ?? "";
    expect(graph).not.toContain("fps=");
  });

  it("leaves out the audio graph for a silent source", () => {
    const args = buildSignalArgs({ ...base, mode: "full", hasAudio: false });
    const graph = args[args.indexOf("-filter_complex") + 1] ?? "";
    expect(graph.startsWith("[0:v:0]")).toBe(true);
    expect(graph).not.toContain("ebur128");
    expect(args.filter((arg) => arg === "-map")).toHaveLength(1);
  });

  it("adds an I/O timeout for URLs", () => {
    const args = buildSignalArgs({
      ...base,
      mode: "fast",
      input: "https://s3.example/v.mp4?sig=1",
      ioTimeoutMs: 1000,
    });
    expect(args).toContain("-rw_timeout");
    expect(args[args.indexOf("-i") + 1]).toBe("https://s3.example/v.mp4?sig=1");
  });

  it("refuses a source with neither audio nor video", () => {
    expect(() => buildSignalArgs({ ...base, mode: "fast", hasAudio: false, hasVideo: false })).toThrow();
  });
});

describe("filter chains", () => {
  it("measures 100 ms audio frames with silencedetect, astats and ebur128, each value printed by a labelled filter", () => {
    const chain = buildAudioSignalChains(5).join(";");
    expect(chain).toContain("asetnsamples=n=4800:p=0");
    expect(chain).toContain("silencedetect=noise=-50dB:duration=0.5");
    expect(chain).toContain("measure_overall=Peak_level+RMS_level");
    expect(chain).toContain(`${SIGNAL_LABELS.rms}=mode=print:key=lavfi.astats.Overall.RMS_level`);
    expect(chain).toContain(`${SIGNAL_LABELS.lufs}=mode=print:key=lavfi.r128.M`);
    expect(chain).toContain(`[forvoice]aresample=8000,highpass=f=100,astats=`);
    expect(chain).toContain(
      `${SIGNAL_LABELS.voice}=mode=print:key=lavfi.astats.Overall.RMS_level[voiceband]`,
    );
  });

  it("uses astats options the 2018 build knows", () => {
    const chain = buildAudioSignalChains(4).join(";");
    expect(chain).toContain("astats=metadata=1:reset=1,");
    expect(chain).not.toContain("measure_overall");
  });

  it("scores scenes with scdet on ffmpeg 5 and with select on older builds", () => {
    expect(buildVideoSignalChain("full", 5)).toContain(
      `scdet=threshold=100,${SIGNAL_LABELS.scene}=mode=print:key=lavfi.scd.score`,
    );
    const old = buildVideoSignalChain("fast", 4);
    expect(old).toContain("select='gte(scene\\,0)'");
    expect(old).toContain("key=lavfi.scene_score");
    expect(old).not.toContain("scdet");
    expect(old).toMatch(
      /tblend=all_mode=difference,signalstats,metadata@motion=mode=print:key=lavfi\.signalstats\.YAVG$/,
    );
  });
});
