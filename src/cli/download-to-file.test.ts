import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadToFile } from "./download-to-file";

const body = Buffer.alloc(4 * 64 * 1024, 7);
let directory = "";
let server: Server;
let baseUrl = "";
/** Responses left open by the stalling route, ended after the tests. */
const stalled: ServerResponse[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "truss-download-test-"));
  server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "video/mp4", "content-length": String(body.length) });
    if (request.url === "/stalls.mp4") {
      // A quarter of the file, then silence with the connection open.
      response.write(body.subarray(0, body.length / 4));
      stalled.push(response);
      return;
    }
    // Four quarters 150 ms apart: slow enough for progress lines.
    let quarter = 0;
    const sendQuarter = () => {
      response.write(body.subarray((quarter * body.length) / 4, ((quarter + 1) * body.length) / 4));
      quarter += 1;
      if (quarter === 4) response.end();
      else setTimeout(sendQuarter, 150);
    };
    sendQuarter();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const response of stalled) response.destroy();
  await new Promise((resolve) => server?.close(resolve));
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe("downloadToFile", () => {
  it("writes progress lines while the bytes arrive", async () => {
    const lines: string[] = [];
    const target = await downloadToFile({
      url: `${baseUrl}/slow.mp4`,
      directory,
      progressIntervalMs: 100,
      log: (line) => lines.push(line),
    });
    expect(path.basename(target)).toBe("slow.mp4");
    expect((await readFile(target)).equals(body)).toBe(true);
    expect(lines.some((line) => /^Downloading: \d+\.\d of 0\.3 MB \(\d+%\)$/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^Downloaded 0\.3 MB in \d+(\.\d)? s$/);
  });

  it("fails soon, saying so, when the server stops sending", async () => {
    const started = performance.now();
    await expect(
      downloadToFile({
        url: `${baseUrl}/stalls.mp4`,
        directory,
        timeoutMs: 20_000,
        idleTimeoutMs: 500,
        log: () => undefined,
      }),
    ).rejects.toThrow(
      "The download stalled: the server sent nothing for 0.5 s, with 0.1 of 0.3 MB (25%) received",
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
