import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOutbox } from "./read-outbox";

let directory: string;
let outboxPath: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-outbox-"));
  outboxPath = path.join(directory, "outbox.jsonl");
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const line = (to: string, sentAt: string) =>
  `${JSON.stringify({ to, subject: "Hi", text: "text", html: "<p>html</p>", sentAt })}\n`;

describe("readOutbox", () => {
  it("is empty when nothing was sent yet", async () => {
    expect(await readOutbox({ outboxPath })).toEqual([]);
  });

  it("returns the newest messages first, up to the limit, skipping broken lines", async () => {
    await writeFile(outboxPath, line("a@x.test", "2026-01-01T00:00:00.000Z"));
    await appendFile(outboxPath, "{not json\n");
    await appendFile(outboxPath, line("b@x.test", "2026-01-01T00:00:01.000Z"));
    await appendFile(outboxPath, line("c@x.test", "2026-01-01T00:00:02.000Z"));
    const messages = await readOutbox({ outboxPath, limit: 2 });
    expect(messages.map((message) => message.to)).toEqual(["c@x.test", "b@x.test"]);
    expect((await readOutbox({ outboxPath })).map((message) => message.to)).toEqual([
      "c@x.test",
      "b@x.test",
      "a@x.test",
    ]);
  });

  it("reads only the tail of a very large outbox", async () => {
    const filler = line("old@x.test", "2025-01-01T00:00:00.000Z").repeat(12_000);
    expect(filler.length).toBeGreaterThan(1024 * 1024);
    await writeFile(outboxPath, filler + line("new@x.test", "2026-01-01T00:00:00.000Z"));
    expect((await readOutbox({ outboxPath, limit: 1 }))[0]?.to).toBe("new@x.test");
    // Asked for all of them, it still returns only what the tail holds: under half the file.
    const messages = await readOutbox({ outboxPath, limit: 100_000 });
    expect(messages[0]?.to).toBe("new@x.test");
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.length).toBeLessThan(6_000);
  });
});
