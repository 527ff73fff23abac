import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The data model's first rule: every key is built in src/db/keys.ts. This test is the lint
 * rule for it: no other source file may spell a key prefix followed by `#`.
 */
const SRC = path.resolve(import.meta.dirname, "..");
const KEY_PREFIX_PATTERN =
  /["'`](?:CREATOR|EMAIL|MAGIC|SESSION|APITOKEN|RATELIMIT|ASSET|CHAPTERS|CLIP|CLIPRANK|STREAM|LIVE_CHAT_SPIKE|ANALYTICS|PLATFORM_TOKEN|PLATFORM_ACCOUNT|ACTIVE_VIDEO|UPLOAD_PARTS|WINDOW)#/;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("key ownership", () => {
  it("builds every table key in src/db/keys.ts and nowhere else", () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => path.relative(SRC, file) !== path.join("db", "keys.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, index) => ({ file: path.relative(SRC, file), line: index + 1, text: line.trim() }))
          // Comments may name keys (they document them); code may not build them.
          .filter(({ text }) => !/^(\/\/|\*|\/\*)/.test(text) && KEY_PREFIX_PATTERN.test(text)),
      );
    expect(offenders).toEqual([]);
  });
});
