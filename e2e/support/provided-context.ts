/** What e2e/global-setup.ts hands the browser tests through vitest's provide/inject. */
declare module "vitest" {
  interface ProvidedContext {
    /** `http://localhost:<port>`: the origin links in emails are built for. */
    e2eAppUrl: string;
    /** The JSON-lines outbox the app writes mail to (no SMTP in tests). */
    e2eOutboxPath: string;
  }
}

export {};
