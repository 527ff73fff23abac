import { constants } from "node:fs";
import { access, copyFile, lstat, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * What `truss clip` may do in its --out folder. A run writes report.json and, per clip,
 * clip-NN.mp4, clip-NN.jpg and clip-NN.preview.webp (or .mp4); it replaces an earlier run's
 * files, which that run's report.json lists, and touches nothing else there.
 */
export const REPORT_FILE_NAME = "report.json";

/** The names this tool gives a clip's files; nothing else in --out is ever removed. */
const CLIP_FILE_NAME = /^clip-\d{2,}(?:\.preview)?\.(?:mp4|jpg|webp)$/;

export function clipBaseName(rank: number): string {
  return `clip-${String(rank).padStart(2, "0")}`;
}

/** Every name a run making up to `topN` clips may write in --out. */
export function namesWrittenByRun(topN: number): string[] {
  const names = [REPORT_FILE_NAME];
  for (let rank = 1; rank <= topN; rank += 1) {
    const base = clipBaseName(rank);
    names.push(`${base}.mp4`, `${base}.jpg`, `${base}.preview.webp`, `${base}.preview.mp4`);
  }
  return names;
}

/**
 * Creates --out (and its parents) or checks that it is a folder this process can write in:
 * before any download or analysis, so a mistyped --out costs seconds, not a whole run.
 */
export async function prepareOutputFolder(outDir: string): Promise<void> {
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === "EEXIST")
      throw new Error(`--out ${outDir} is a file, not a folder; choose a folder for the clips`);
    if (code === "ENOTDIR") {
      const file = await findFileOnPath(outDir);
      throw new Error(
        `--out ${outDir} cannot be a folder: ${file ?? "a part of that path"} is a file; choose a folder for the clips`,
      );
    }
    if (code === "EACCES" || code === "EPERM")
      throw new Error(`--out ${outDir} cannot be created: permission denied`);
    throw new Error(`--out ${outDir} cannot be created: ${message}`);
  }
  await access(outDir, constants.W_OK | constants.X_OK).catch(() => {
    throw new Error(`--out ${outDir} is not a folder you can write in`);
  });
}

/** The nearest ancestor of `target` that exists and is not a folder (mkdir's ENOTDIR). */
async function findFileOnPath(target: string): Promise<string | null> {
  for (
    let current = path.dirname(path.resolve(target));
    current !== path.dirname(current);
    current = path.dirname(current)
  ) {
    const entry = await stat(current).catch(() => null);
    if (entry) return entry.isDirectory() ? null : current;
  }
  return null;
}

/**
 * The files an earlier run listed in --out's report.json that are still there. Only names this
 * tool gives its files count (a bare name, so nothing outside --out), and only regular files: an
 * unreadable or foreign report.json, a link, a folder, another name are left alone.
 */
export async function listEarlierOutputs(outDir: string): Promise<string[]> {
  let report: unknown;
  try {
    report = JSON.parse(await readFile(path.join(outDir, REPORT_FILE_NAME), "utf8"));
  } catch {
    return [];
  }
  const clips = (report as { clips?: unknown } | null)?.clips;
  if (!Array.isArray(clips)) return [];
  const listed = new Set<string>();
  for (const clip of clips as Record<string, unknown>[]) {
    for (const name of [clip?.file, clip?.thumbnail, clip?.preview]) {
      if (typeof name === "string" && CLIP_FILE_NAME.test(name)) listed.add(name);
    }
  }
  const present: string[] = [];
  for (const name of listed) {
    const entry = await lstat(path.join(outDir, name)).catch(() => null);
    if (entry?.isFile()) present.push(name);
  }
  return present;
}

/**
 * The name among `names` in `outDir` that is the input file itself, or null. The input is
 * followed through links to the file it shows; each name is taken as the entry a run would
 * replace or remove. Same device and inode catches a relative path, a symlink into --out, a
 * case-insensitive disk's other spelling and a hard link alike.
 */
export async function findOutputThatIsInput(
  inputPath: string,
  outDir: string,
  names: readonly string[],
): Promise<string | null> {
  const input = await stat(inputPath).catch(() => null);
  if (!input) return null;
  for (const name of names) {
    const entry = await lstat(path.join(outDir, name)).catch(() => null);
    if (entry && entry.dev === input.dev && entry.ino === input.ino) return name;
  }
  return null;
}

/**
 * Ends a run that succeeded: moves its files from `stagingDir` into --out (each replacing its
 * namesake at once, never half-written), removes the earlier run's files it did not replace,
 * and writes report.json last, so the folder holds exactly what its report lists. A run that
 * fails or is cancelled never gets here and leaves the earlier run's files as they were.
 */
export async function publishOutputs({
  stagingDir,
  outDir,
  fileNames,
  earlierOutputs,
  reportText,
}: {
  stagingDir: string;
  outDir: string;
  /** Names of the finished files in `stagingDir`. */
  fileNames: readonly string[];
  earlierOutputs: readonly string[];
  reportText: string;
}): Promise<{ removed: string[] }> {
  for (const name of fileNames) await moveIntoPlace(path.join(stagingDir, name), path.join(outDir, name));
  const removed: string[] = [];
  for (const name of earlierOutputs) {
    if (fileNames.includes(name)) continue;
    await unlink(path.join(outDir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    removed.push(name);
  }
  const reportPath = path.join(outDir, REPORT_FILE_NAME);
  const partialReport = partialName(reportPath);
  await writeFile(partialReport, reportText);
  await rename(partialReport, reportPath);
  return { removed };
}

/** rename, or (across filesystems) a copy beside the target renamed over it: atomic either way. */
async function moveIntoPlace(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    const partial = partialName(to);
    try {
      await copyFile(from, partial);
      await rename(partial, to);
    } catch (copyError) {
      await unlink(partial).catch(() => undefined);
      throw copyError;
    }
    await unlink(from);
  }
}

function partialName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`);
}
