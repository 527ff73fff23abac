import { describe, expect, it } from "vitest";
import { lineOutput, terminalOutput } from "./cli-output";

describe("terminalOutput", () => {
  it("rewrites a task's progress in place, once per percent, and a line replaces it", () => {
    const written: string[] = [];
    const output = terminalOutput({ write: (chunk: string) => written.push(chunk) });

    output.line("Reading the video…");
    output.progress("Measuring", 0);
    output.progress("Measuring", 0.004); // still 0%
    output.progress("Measuring", 0.42);
    output.progress("Measuring", 1);
    output.line("Finding the best moments…");
    output.line("Done");

    expect(written).toEqual([
      "Reading the video…\n",
      "\r\x1b[KMeasuring: 0%",
      "\r\x1b[KMeasuring: 42%",
      "\r\x1b[KMeasuring: 100%",
      "\r\x1b[KFinding the best moments…\n",
      "Done\n",
    ]);
  });
});

describe("lineOutput", () => {
  it("writes progress as lines every 10% and at 100%, starting afresh after each line", () => {
    const lines: string[] = [];
    const output = lineOutput((text) => lines.push(text));

    for (let percent = 0; percent <= 100; percent += 3) output.progress("  rendering", percent / 100);
    output.progress("  rendering", 1);
    output.line("Rendering clip 2/2");
    output.progress("  rendering", 0.5);
    output.progress("  rendering", 0.2); // progress never goes back
    output.progress("  rendering", 1.7); // clamped

    expect(lines).toEqual([
      "  rendering: 0%",
      "  rendering: 12%",
      "  rendering: 24%",
      "  rendering: 36%",
      "  rendering: 48%",
      "  rendering: 60%",
      "  rendering: 72%",
      "  rendering: 84%",
      "  rendering: 96%",
      "  rendering: 100%",
      "Rendering clip 2/2",
      "  rendering: 50%",
      "  rendering: 100%",
    ]);
  });

  it("goes on from where a task was after a line written in its middle", () => {
    const lines: string[] = [];
    const output = lineOutput((text) => lines.push(text));
    output.progress("  rendering", 0);
    output.line("  layout fit: nothing to follow");
    output.progress("  rendering", 0);
    output.progress("  rendering", 0.1);
    expect(lines).toEqual(["  rendering: 0%", "  layout fit: nothing to follow", "  rendering: 10%"]);
  });
});
