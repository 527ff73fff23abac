import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const launcher = path.resolve(import.meta.dirname, "truss.mjs");
const truss = (...args: string[]) => spawnSync(process.execPath, [launcher, ...args], { encoding: "utf8" });

describe("truss", () => {
  it("prints the usage to stderr when run with no command, and to stdout when asked for it", () => {
    const bare = truss();
    expect(bare.status).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toMatch(/^Usage: npx truss <command>/);
    const help = truss("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(bare.stderr);
    expect(help.stderr).toBe("");
  });
});
