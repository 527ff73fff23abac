import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_TEMP_PREFIX } from "@/engine/render/render-clip";
import { generateSyntheticVideo, ONE_LOUD_BURST_MINUTE } from "@/engine/testing/synthetic-video";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";

/**
 * `npx truss clip` cancelled mid-render, as people and supervisors cancel it: the CLI (under its
 * launcher, bin/truss.mjs) must remove its temporary files and only then end, by SIGINT (status
 * 130 to a shell), however many times the signal arrives and whichever process it reaches.
 */
const launcher = path.resolve(import.meta.dirname, "truss.mjs");
const binaries = resolveMediaBinaries();
let directory = "";
let videoPath = "";
const groups: number[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-cli-signal-test-"));
  videoPath = path.join(directory, "planted.mp4");
  await generateSyntheticVideo({
    binaries,
    outputPath: videoPath,
    plan: ONE_LOUD_BURST_MINUTE,
  });
}, 60_000);

afterAll(async () => {
  // Whatever the outcome, nothing of these tests keeps running.
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  if (directory) await rm(directory, { recursive: true, force: true });
});

/** Entries of `folder` and of its subfolders, as relative paths. */
async function listTwoLevels(folder: string): Promise<string[]> {
  const entries: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    entries.push(entry.name);
    if (entry.isDirectory()) {
      const inner = await readdir(path.join(folder, entry.name)).catch(() => []);
      entries.push(...inner.map((name) => path.join(entry.name, name)));
    }
  }
  return entries;
}

const groupAlive = (group: number) => {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
};

describe("truss clip, cancelled", () => {
  it.each([
    ["the process group (a terminal's Ctrl+C)", "group"],
    ["the launcher alone (a supervisor)", "launcher"],
  ] as const)(
    "cleans up, then ends by SIGINT, when SIGINT reaches %s twice mid-render",
    async (_, target) => {
      // The CLI's own temporary folder, so that whatever it leaves there is seen exactly.
      const privateTemp = await mkdtemp(path.join(directory, `tmp-${target}-`));
      const outDir = path.join(directory, `out-${target}`);
      const cli = spawn(
        process.execPath,
        [launcher, "clip", videoPath, "--out", outDir, "--top", "1", "--min-seconds", "30"],
        { env: { ...process.env, TMPDIR: privateTemp }, stdio: ["ignore", "pipe", "pipe"], detached: true },
      );
      const group = cli.pid as number;
      groups.push(group);
      let stderr = "";
      cli.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      cli.stdout.resume();
      let ended = false;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        cli.once("exit", (code, signal) => {
          ended = true;
          resolve({ code, signal });
        }),
      );

      // Mid-render: a render's work folder exists (with ffmpeg at work in it).
      const rendering = async () =>
        (await listTwoLevels(privateTemp)).some((entry) =>
          path.basename(entry).startsWith(RENDER_TEMP_PREFIX),
        );
      while (!ended && !(await rendering())) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended, stderr).toBe(false);

      const interrupt = () => process.kill(target === "group" ? -group : group, "SIGINT");
      // The repeat right behind the first, as a second press or tsx's 30 ms relay sends it: it
      // must not end the CLI before its cleanup is done.
      interrupt();
      await new Promise((resolve) => setTimeout(resolve, 1));
      interrupt();
      const { code, signal } = await exited;

      // Gone by the time the launcher ended: tsx's transform cache (tsx-*) alone is meant to stay.
      expect((await readdir(privateTemp)).filter((name) => !name.startsWith("tsx-"))).toEqual([]);
      expect(await readdir(outDir)).toEqual([]);
      // What a shell reports: 128 + the signal's number for a process the signal ended.
      const status = code ?? 128 + (os.constants.signals[signal as NodeJS.Signals] ?? 0);
      expect(status, stderr).toBe(130);
      expect(stderr).toContain("Cancelled.");
      // Nothing of the run lives on (tsx's esbuild service follows within moments as its pipe closes).
      const deadline = Date.now() + 5_000;
      while (groupAlive(group) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(groupAlive(group)).toBe(false);
    },
    120_000,
  );
});
