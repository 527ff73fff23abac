import { S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { MediaCommandError, runMedia } from "@/media/run-ffmpeg";
import { renderFromStoredSource } from "./stored-source";

const { ffmpegPath } = resolveMediaBinaries();
const LOCAL_COPY_PATH = "/tmp/truss-test-local-copy";

// Presigning is computed here, with no request: nothing listens at this endpoint.
const s3 = new S3Client({
  region: "us-east-1",
  endpoint: "http://127.0.0.1:9",
  forcePathStyle: true,
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
});

/** Renders that fail on the stored URL with `urlFailure`, and succeed on the local copy. */
function renderFailingOnUrl(urlFailure: (url: string) => Promise<never>) {
  const renderedFrom: string[] = [];
  const fallbacks: unknown[] = [];
  let localCopies = 0;
  const outcome = renderFromStoredSource({
    s3,
    bucket: "truss-media",
    source: { key: "creators/c/videos/v/source", ifMatch: '"etag"' },
    signal: new AbortController().signal,
    render: async (sourcePath) => {
      renderedFrom.push(sourcePath);
      if (sourcePath === LOCAL_COPY_PATH) return "rendered" as const;
      return urlFailure(sourcePath);
    },
    localSource: async () => {
      localCopies++;
      return LOCAL_COPY_PATH;
    },
    onFallback: (error) => fallbacks.push(error),
  });
  return { outcome, renderedFrom, fallbacks, localCopies: () => localCopies };
}

const ffmpegErrorDetails = { binaryPath: "ffmpeg", args: [], stderrTail: "" };

describe("renderFromStoredSource", () => {
  it("downloads the source and renders again when ffmpeg fails on the stored URL", async () => {
    const run = renderFailingOnUrl(async (url) => {
      // ffmpeg itself, failing to read the URL (nothing answers there).
      await runMedia({
        binaryPath: ffmpegPath,
        args: ["-hide_banner", "-i", url, "-f", "null", "-"],
        timeoutMs: 20_000,
      });
      throw new Error("ffmpeg read an unreachable URL");
    });
    await expect(run.outcome).resolves.toBe("rendered");
    expect(run.renderedFrom).toEqual([expect.stringContaining("http://127.0.0.1:9/"), LOCAL_COPY_PATH]);
    expect(run.fallbacks).toEqual([expect.any(MediaCommandError)]);
  });

  it("falls back too when the render words ffmpeg's failure in its own error", async () => {
    const ffmpegFailure = new MediaCommandError("ffmpeg exited with code 1", {
      ...ffmpegErrorDetails,
      exitCode: 1,
      timedOut: false,
    });
    const run = renderFailingOnUrl(async () => {
      throw new Error("The source shows no picture from 0:10 to 0:40", { cause: ffmpegFailure });
    });
    await expect(run.outcome).resolves.toBe("rendered");
    expect(run.localCopies()).toBe(1);
  });

  it("rethrows a failure after ffmpeg finished (storing the render) without downloading the source", async () => {
    const putFailure = new S3ServiceException({
      name: "InternalError",
      $fault: "server",
      $metadata: { httpStatusCode: 500 },
      message: "We encountered an internal error. Please try again.",
    });
    const run = renderFailingOnUrl(async () => {
      throw putFailure;
    });
    await expect(run.outcome).rejects.toBe(putFailure);
    expect(run.localCopies()).toBe(0);
    expect(run.renderedFrom).toHaveLength(1);
    expect(run.fallbacks).toEqual([]);
  });

  it("rethrows an ffmpeg run that timed out or was killed, rather than encoding it all over again", async () => {
    for (const details of [
      { exitCode: 255, timedOut: true },
      { exitCode: null, timedOut: false },
    ]) {
      const stopped = new MediaCommandError("ffmpeg stopped", { ...ffmpegErrorDetails, ...details });
      const run = renderFailingOnUrl(async () => {
        throw stopped;
      });
      await expect(run.outcome).rejects.toBe(stopped);
      expect(run.localCopies()).toBe(0);
    }
  });
});
