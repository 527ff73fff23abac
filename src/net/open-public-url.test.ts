import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type HostResolver,
  MAX_IMPORT_URL_LENGTH,
  openPublicUrl,
  parseImportUrl,
  resolvePublicAddresses,
  UrlImportError,
} from "./open-public-url";

const LARGE_BYTES = 16 * 1024 * 1024;
let server: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    hits.push(`${request.headers.host}${request.url}`);
    const url = new URL(request.url ?? "/", "http://x");
    if (url.pathname === "/video.mp4") {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": "5" });
      response.end("hello");
    } else if (url.pathname === "/redirect") {
      response.writeHead(302, { location: url.searchParams.get("to") ?? "/video.mp4" });
      response.end();
    } else if (url.pathname === "/stalls.mp4" || url.pathname === "/cut.mp4") {
      // 100 of the 1000 bytes promised, then silence (the connection open) or the connection closed.
      response.writeHead(200, { "content-type": "video/mp4", "content-length": "1000" });
      response.write(Buffer.alloc(100));
      if (url.pathname === "/cut.mp4") setTimeout(() => response.socket?.end(), 50);
    } else if (url.pathname === "/large-then-stalls.mp4") {
      // Plenty, then silence with the connection open and the rest never sent.
      response.writeHead(200, { "content-type": "video/mp4", "content-length": String(2 * LARGE_BYTES) });
      response.write(Buffer.alloc(LARGE_BYTES, 7));
    } else if (url.pathname === "/large.mp4") {
      // More than the socket and stream buffers hold, so a slow reader holds the server back.
      response.writeHead(200, { "content-type": "video/mp4", "content-length": String(LARGE_BYTES) });
      response.end(Buffer.alloc(LARGE_BYTES, 7));
    } else if (url.pathname === "/loop") {
      response.writeHead(301, { location: "/loop" });
      response.end();
    } else {
      response.writeHead(404);
      response.end("nope");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A DNS of the test's own: names that exist nowhere else, so only a pinned connection reaches them. */
const fakeDns =
  (table: Record<string, string[]>): HostResolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return error instanceof UrlImportError ? error.kind : `other: ${(error as Error).message}`;
  }
}

describe("openPublicUrl", () => {
  it("connects to the address it checked, not to what the system resolver would say", async () => {
    const resolve = fakeDns({ "media.test": ["127.0.0.1"] });
    const opened = await openPublicUrl({
      url: `http://media.test:${port}/video.mp4`,
      allowPrivateAddresses: true,
      resolve,
    });
    const body: Buffer[] = [];
    for await (const chunk of opened.response) body.push(chunk as Buffer);
    expect(Buffer.concat(body).toString()).toBe("hello");
    expect(opened).toMatchObject({ contentLength: 5, contentType: "video/mp4" });
    expect(hits.at(-1)).toBe(`media.test:${port}/video.mp4`);
  });

  it("tries each checked address in turn when the first does not answer", async () => {
    // The test server listens on 127.0.0.1 only: 127.0.0.2 (loopback too) refuses.
    const resolve = fakeDns({ "media.test": ["127.0.0.2", "127.0.0.1"] });
    const opened = await openPublicUrl({
      url: `http://media.test:${port}/video.mp4`,
      allowPrivateAddresses: true,
      resolve,
    });
    expect(await text(opened.response)).toBe("hello");
  });

  it("refuses a host that resolves to a private address when private addresses are not allowed", async () => {
    const resolve = fakeDns({ "media.test": ["127.0.0.1"], "mixed.test": ["93.184.216.34", "10.0.0.5"] });
    const before = hits.length;
    expect(
      await failureOf(
        openPublicUrl({ url: `http://media.test:${port}/video.mp4`, allowPrivateAddresses: false, resolve }),
      ),
    ).toBe("refused-address");
    // One private answer among public ones is enough to refuse (the socket might pick it).
    expect(
      await failureOf(
        openPublicUrl({ url: "http://mixed.test/video.mp4", allowPrivateAddresses: false, resolve }),
      ),
    ).toBe("refused-address");
    expect(
      await failureOf(
        openPublicUrl({ url: "http://[::ffff:127.0.0.1]/x", allowPrivateAddresses: false, resolve }),
      ),
    ).toBe("refused-address");
    expect(hits.length).toBe(before);
  });

  it("checks every redirect hop", async () => {
    const resolve = fakeDns({ "media.test": ["127.0.0.1"], "metadata.test": ["169.254.169.254"] });
    const followed = await openPublicUrl({
      url: `http://media.test:${port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port}/video.mp4`)}`,
      allowPrivateAddresses: true,
      resolve,
    });
    followed.response.resume();
    expect(followed.finalUrl.toString()).toBe(`http://127.0.0.1:${port}/video.mp4`);

    // The test server is trusted; the hop it redirects to (cloud metadata) is not.
    const before = hits.length;
    const error = await openPublicUrl({
      url: `http://media.test:${port}/redirect?to=${encodeURIComponent("http://metadata.test/latest")}`,
      allowPrivateAddresses: false,
      trustedAddresses: ["127.0.0.1"],
      resolve,
    }).catch((caught: unknown) => caught);
    expect(hits.length).toBe(before + 1);
    expect(error).toBeInstanceOf(UrlImportError);
    expect((error as UrlImportError).kind).toBe("refused-address");
    expect((error as UrlImportError).message).not.toContain("169.254.169.254");

    const literal = await openPublicUrl({
      url: `http://media.test:${port}/redirect?to=${encodeURIComponent(`http://[::1]:${port}/video.mp4`)}`,
      allowPrivateAddresses: false,
      trustedAddresses: ["127.0.0.1"],
      resolve,
    }).catch((caught: unknown) => caught);
    expect((literal as UrlImportError).kind).toBe("refused-address");
  });

  it("refuses redirects to other schemes, endless redirects and error answers", async () => {
    const resolve = fakeDns({ "media.test": ["127.0.0.1"] });
    const base = `http://media.test:${port}`;
    expect(
      await failureOf(
        openPublicUrl({
          url: `${base}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`,
          allowPrivateAddresses: true,
          resolve,
        }),
      ),
    ).toBe("invalid-url");
    expect(
      await failureOf(
        openPublicUrl({ url: `${base}/loop`, allowPrivateAddresses: true, resolve, maxRedirects: 3 }),
      ),
    ).toBe("too-many-redirects");
    const notFound = await openPublicUrl({
      url: `${base}/missing`,
      allowPrivateAddresses: true,
      resolve,
    }).catch((e) => e);
    expect(notFound).toMatchObject({ kind: "http-status", message: "The URL answered 404 Not Found." });
    expect((notFound as UrlImportError).options.permanent).toBe(true);
  });

  it("names the network's reason when the connection is refused", async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      openPublicUrl({ url: `http://127.0.0.1:${closedPort}/video.mp4`, allowPrivateAddresses: true }),
    ).rejects.toThrow(
      `The URL could not be reached: the server refused the connection (connect ECONNREFUSED 127.0.0.1:${closedPort}).`,
    );
  });

  it("fails the body in its own words when the server stalls or closes the connection mid-way", async () => {
    const stalls = await openPublicUrl({
      url: `http://127.0.0.1:${port}/stalls.mp4`,
      allowPrivateAddresses: true,
      idleTimeoutMs: 300,
    });
    await expect(text(stalls.response)).rejects.toMatchObject({
      kind: "timeout",
      message: "The server sent nothing for 0.3 s.",
    });
    const cut = await openPublicUrl({ url: `http://127.0.0.1:${port}/cut.mp4`, allowPrivateAddresses: true });
    await expect(text(cut.response)).rejects.toMatchObject({
      kind: "network",
      message: "The connection broke off mid-download: the server closed it before the whole file arrived.",
    });
  });

  it("does not call a reader's own slowness a stalled server", async () => {
    // The worker writes the body to storage part by part: while a part uploads, it reads nothing
    // and the socket is paused with data waiting. That silence is ours, not the server's.
    const opened = await openPublicUrl({
      url: `http://127.0.0.1:${port}/large.mp4`,
      allowPrivateAddresses: true,
      idleTimeoutMs: 200,
    });
    let receivedBytes = 0;
    let pauses = 0;
    for await (const chunk of opened.response) {
      receivedBytes += (chunk as Buffer).byteLength;
      if (pauses < 2 && receivedBytes > (pauses + 1) * 4 * 1024 * 1024) {
        pauses += 1;
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
    }
    expect(pauses).toBe(2);
    expect(receivedBytes).toBe(LARGE_BYTES);
  });

  it("still notices a server that stalls after the reader has been the slow one", async () => {
    const opened = await openPublicUrl({
      url: `http://127.0.0.1:${port}/large-then-stalls.mp4`,
      allowPrivateAddresses: true,
      idleTimeoutMs: 200,
    });
    const startedAt = performance.now();
    let paused = false;
    const reading = (async () => {
      for await (const _chunk of opened.response) {
        if (!paused) {
          paused = true;
          await new Promise((resolve) => setTimeout(resolve, 700));
        }
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: "UrlImportError", kind: "timeout" });
    expect(paused).toBe(true);
    // The pause, draining what was sent, then one idle period or two: not an endless wait.
    expect(performance.now() - startedAt).toBeLessThan(5_000);
  });

  it("reads a body that ends when the server closes the connection (no length, not chunked)", async () => {
    const raw = net.createServer((socket) =>
      socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nhello")),
    );
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const rawPort = (raw.address() as AddressInfo).port;
    const opened = await openPublicUrl({ url: `http://127.0.0.1:${rawPort}/`, allowPrivateAddresses: true });
    expect(await text(opened.response)).toBe("hello");
    await new Promise((resolve) => raw.close(resolve));
  });
});

describe("resolvePublicAddresses and parseImportUrl", () => {
  it("checks IP literals without DNS", async () => {
    await expect(
      resolvePublicAddresses(new URL("http://8.8.8.8/x"), { allowPrivateAddresses: false }),
    ).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
    await expect(
      resolvePublicAddresses(new URL("http://[fd00::1]/x"), { allowPrivateAddresses: false }),
    ).rejects.toThrow(/only public addresses can be imported/);
  });

  it("refuses a private address without saying which one, or what a name resolves to", async () => {
    const resolve = fakeDns({
      "intranet.test": ["10.1.2.3"],
      "mixed.test": ["93.184.216.34", "fd00::7"],
      "loopback.test": ["127.0.0.1"],
    });
    const messages: string[] = [];
    for (const url of [
      "http://intranet.test/a.mp4",
      "http://mixed.test/a.mp4",
      "http://loopback.test/a.mp4",
      "http://10.1.2.3/a.mp4",
      "http://[fd00::7]/a.mp4",
    ]) {
      const error = await resolvePublicAddresses(new URL(url), {
        allowPrivateAddresses: false,
        resolve,
      }).catch((caught: unknown) => caught);
      expect(error, url).toBeInstanceOf(UrlImportError);
      expect((error as UrlImportError).kind, url).toBe("refused-address");
      messages.push((error as UrlImportError).message);
    }
    for (const message of messages)
      expect(message).not.toMatch(/10\.1\.2\.3|fd00|127\.0\.0\.1|private|local/i);
    // One sentence for every refused host: nothing tells a name apart from a literal address.
    expect(new Set(messages).size).toBe(1);
  });

  it("accepts only http(s) URLs without credentials", () => {
    expect(parseImportUrl("https://example.com/a.mp4").hostname).toBe("example.com");
    for (const value of [
      "ftp://example.com/a",
      "file:///etc/passwd",
      "https://u:p@example.com/a",
      "nonsense",
    ]) {
      expect(() => parseImportUrl(value), value).toThrow(UrlImportError);
    }
    const longest = `https://example.com/${"a".repeat(MAX_IMPORT_URL_LENGTH - 20)}`;
    expect(parseImportUrl(longest).hostname).toBe("example.com");
    expect(() => parseImportUrl(`${longest}b`)).toThrow("This URL is too long: at most 2,048 characters.");
  });
});
