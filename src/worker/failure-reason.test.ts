import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MediaCommandError } from "@/media/run-ffmpeg";
import { failureReasonOf } from "./failure-reason";
import { PermanentJobError } from "./job-types";

const ffmpegFailure = (stderrTail: string, timedOut = false) =>
  new MediaCommandError("/usr/bin/ffmpeg exited with code 1: Conversion failed!", {
    binaryPath: "/usr/bin/ffmpeg",
    args: ["-i", "/tmp/truss-analyze-x1/source"],
    exitCode: 1,
    stderrTail,
    timedOut,
  });

describe("failureReasonOf", () => {
  it("passes our own messages through, on one line", () => {
    expect(failureReasonOf(new PermanentJobError("This file has no video track."))).toBe(
      "This file has no video track.",
    );
    expect(failureReasonOf(new Error("The download ended\nafter 10 of 20 bytes."))).toBe(
      "The download ended after 10 of 20 bytes.",
    );
  });

  it("names ffmpeg's failure by its last line, without the worker's paths or addresses", () => {
    const reason = failureReasonOf(
      ffmpegFailure(
        "[h264 @ 0x55d1c0a3e2c0] error while decoding MB 12 4\n[h264 @ 0x55d1c0a3e2c0] Invalid NAL unit size",
      ),
    );
    expect(reason).toBe("ffmpeg could not process the video: [h264] Invalid NAL unit size");
    expect(failureReasonOf(ffmpegFailure("", true))).toBe("ffmpeg did not finish in time.");
  });

  it("says when ffmpeg was stopped from outside, not that the video was at fault", () => {
    const killed = new MediaCommandError("/usr/bin/ffmpeg was stopped by SIGKILL from outside", {
      binaryPath: "/usr/bin/ffmpeg",
      args: [],
      exitCode: null,
      stderrTail: "frame=  120 fps= 60",
      timedOut: false,
    });
    expect(failureReasonOf(killed)).toBe(
      "ffmpeg was stopped before it finished (on our side: the worker may have run out of memory).",
    );
  });

  it("never shows the presigned URL or local file ffmpeg names in its last line", () => {
    const url =
      "http://127.0.0.1:8701/truss-media/creators/cr_1/videos/vid_1/source?X-Amz-Credential=S3RVER%2F1&X-Amz-Signature=ab12";
    expect(failureReasonOf(ffmpegFailure(`${url}: Server returned 404 Not Found`))).toBe(
      "ffmpeg could not process the video: the video: Server returned 404 Not Found",
    );
    expect(failureReasonOf(ffmpegFailure("file:/tmp/truss-render-x/source.mp4: Invalid argument"))).toBe(
      "ffmpeg could not process the video: the video: Invalid argument",
    );
  });

  it("keeps a schema failure's details out, and long messages short", () => {
    const schemaFailure = z.object({ clipId: z.string() }).safeParse({}).error;
    expect(failureReasonOf(schemaFailure)).toBe("Something went wrong on our side.");
    const reason = failureReasonOf(new Error("x".repeat(1000)));
    expect(reason.length).toBe(240);
    expect(reason.endsWith("…")).toBe(true);
  });
});
