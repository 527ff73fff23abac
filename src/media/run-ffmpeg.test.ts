import { describe, expect, it } from "vitest";
import { childProcesses } from "../../dev/test/child-processes";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { MediaCommandError, readMediaStdout, runMedia } from "./run-ffmpeg";

const { ffmpegPath } = resolveMediaBinaries();

describe("runMedia", () => {
  it("streams stdout and reports success", async () => {
    let bytes = 0;
    await runMedia({
      binaryPath: ffmpegPath,
      args: [
        "-hide_banner",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=1",
        "-f",
        "s16le",
        "-ac",
        "1",
        "-ar",
        "8000",
        "pipe:1",
      ],
      timeoutMs: 20_000,
      consumeStdout: async (stdout) => {
        for await (const chunk of stdout) bytes += (chunk as Buffer).length;
      },
    });
    expect(bytes).toBe(8000 * 2);
  });

  it("fails with the stderr tail when ffmpeg fails", async () => {
    const error = await runMedia({
      binaryPath: ffmpegPath,
      args: ["-i", "/nonexistent.mp4", "-f", "null", "-"],
      timeoutMs: 20_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MediaCommandError);
    expect((error as MediaCommandError).details.stderrTail).toContain("No such file");
    // ffmpeg said why: the input is at fault, not the machine.
    expect((error as MediaCommandError).interrupted).toBe(false);
  });

  it("tells a run killed from outside, or never started, from one that failed on its input", async () => {
    const killed = runMedia({
      binaryPath: ffmpegPath,
      args: ["-f", "lavfi", "-i", "sine=frequency=440", "-f", "null", "-"],
      timeoutMs: 20_000,
    }).catch((caught: unknown) => caught);
    // The kernel's OOM killer, played by this test.
    const ffmpegPid = await waitForChild(ffmpegPath);
    process.kill(ffmpegPid, "SIGKILL");
    expect(await killed).toMatchObject({
      interrupted: true,
      message: `${ffmpegPath} was stopped by SIGKILL from outside`,
    });

    const notStarted = await runMedia({
      binaryPath: "/nonexistent/ffmpeg",
      args: [],
      timeoutMs: 5_000,
    }).catch((caught: unknown) => caught);
    expect((notStarted as MediaCommandError).interrupted).toBe(true);
  });

  it("kills a run that exceeds its timeout", async () => {
    const started = Date.now();
    const error = await runMedia({
      binaryPath: ffmpegPath,
      args: ["-f", "lavfi", "-i", "sine=frequency=440", "-f", "null", "-"],
      timeoutMs: 300,
    }).catch((caught: unknown) => caught);
    expect((error as MediaCommandError).details.timedOut).toBe(true);
    expect((error as MediaCommandError).interrupted).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("can be cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await runMedia({
      binaryPath: ffmpegPath,
      args: ["-f", "lavfi", "-i", "sine=frequency=440", "-f", "null", "-"],
      timeoutMs: 20_000,
      signal: controller.signal,
    }).catch((caught: unknown) => caught);
    expect((error as MediaCommandError).message).toContain("cancelled");
    expect((error as MediaCommandError).interrupted).toBe(false);
  });
});

/** The pid of this process's child running `binaryPath`, once it is running. */
async function waitForChild(binaryPath: string): Promise<number> {
  for (let tries = 0; tries < 400; tries++) {
    const child = (await childProcesses()).find(({ commandLine }) => commandLine.startsWith(binaryPath));
    if (child) return child.pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${binaryPath} did not start`);
}

describe("readMediaStdout", () => {
  const toneArgs = (seconds: number) => [
    ...["-hide_banner", "-v", "error", "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
    ...["-f", "s16le", "-ac", "1", "-ar", "8000", "pipe:1"],
  ];

  it("returns all ffmpeg wrote to stdout", async () => {
    const pcm = await readMediaStdout({
      binaryPath: ffmpegPath,
      args: toneArgs(1),
      timeoutMs: 20_000,
    });
    expect(pcm.length).toBe(8000 * 2);
  });

  it("stops a run that writes more than it was asked to hold", async () => {
    const error = await readMediaStdout({
      binaryPath: ffmpegPath,
      // 10 minutes of tone: 9.6 MB, against a 64 KB limit.
      args: toneArgs(600),
      timeoutMs: 20_000,
      maxBytes: 64 * 1024,
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/wrote over 65536 bytes to stdout/);
  });
});
