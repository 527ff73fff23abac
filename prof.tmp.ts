import { loadFaceDetector } from "@/engine/faces/face-detector";
import { renderClip } from "@/engine/render/render-clip";
import { probeMedia } from "@/media/probe";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { readFileSync } from "node:fs";
const src = "/work/bench-cache/planted-600s-1080p30.mp4";
const b = resolveMediaBinaries();
const probe = await probeMedia({ binaries: b, input: src });
const motion = JSON.parse(readFileSync("/tmp/sig-fast.json", "utf8")).motion;
const cuts = JSON.parse(readFileSync("/tmp/sig-fast.json", "utf8")).sceneCutsSeconds;
await loadFaceDetector();
const [s, e, n] = process.argv.slice(2).map(Number);
for (let i = 0; i < (n ?? 2); i++) {
  const t0 = performance.now();
  const marks: string[] = [];
  await renderClip({ sourcePath: src, probe, startSeconds: s!, endSeconds: e!, sceneCutsSeconds: cuts, motionPerSecond: motion, outputDir: "/tmp/prof-out", baseName: "c", onProgress: (f: number) => { if (f >= 0.12 && marks.length === 0) marks.push(`analysis done ${(performance.now()-t0).toFixed(0)} ms`); } } as never, { binaries: { ...b, ffmpegPath: "/tmp/ffwrap.sh" }, log: (m) => marks.push(m) });
  console.log(marks.join(" | "), `total ${(performance.now() - t0).toFixed(0)} ms`);
}
