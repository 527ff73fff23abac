import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium; browsers are never downloaded. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type TestBrowser = { context: BrowserContext; close: () => Promise<void> };

/**
 * A fresh Chromium profile in a temp directory, removed again by `close()`. With
 * `javaScriptEnabled: false` it shows what works as plain HTML.
 */
export async function launchBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<TestBrowser> {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), "truss-e2e-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 800 },
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    return {
      context,
      close: async () => {
        await context.close().catch(() => {});
        await rm(profileDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
}
