import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export type CaptionFont = {
  /** The family name the ASS style asks for. */
  fontName: string;
  /** A font file to hand libass (copied into a fonts directory of its own), or null. */
  fontPath: string | null;
};

/**
 * The captions' font. Next.js ships Geist (a clean sans serif that reads well outlined) inside
 * its package, so every machine running Truss has the same font and captions look the same
 * with Debian's ffmpeg and the npm build; libass makes it bold. Without it, the fontconfig
 * default sans serif.
 */
export function findCaptionFont(): CaptionFont {
  try {
    const require = createRequire(import.meta.url);
    const nextDirectory = path.dirname(require.resolve("next/package.json"));
    const fontPath = path.join(nextDirectory, "dist", "compiled", "@vercel", "og", "Geist-Regular.ttf");
    if (existsSync(fontPath)) return { fontName: "Geist", fontPath };
  } catch {
    // Next.js not installed (a worker-only deployment): fall through.
  }
  return { fontName: "Sans", fontPath: null };
}
