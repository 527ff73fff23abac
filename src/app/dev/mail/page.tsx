import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Logo } from "@/components/ui/logo";
import { isDevMailboxEnabled } from "@/server/mail/dev-mailbox";
import { readOutbox } from "@/server/mail/read-outbox";
import { getRuntime } from "@/server/runtime";

export const metadata: Metadata = { title: "Dev mailbox", robots: { index: false } };
export const dynamic = "force-dynamic";

/** Development only: the newest messages of the local outbox (no SMTP configured). */
export default async function DevMailPage() {
  const { config } = getRuntime();
  if (!isDevMailboxEnabled(config)) notFound();
  const messages = await readOutbox({ outboxPath: config.mail.outboxPath, limit: 20 });

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <div className="mb-8 flex items-center justify-between gap-4">
        <Logo />
        <Badge tone="warning">Development only</Badge>
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Dev mailbox</h1>
      <p className="mt-1 text-sm text-slate-500">
        No SMTP server is configured, so email is written to{" "}
        <code className="text-slate-700">{config.mail.outboxPath}</code>. Newest first; refresh to see new
        messages.
      </p>
      <div className="mt-8 flex flex-col gap-4">
        {messages.length === 0 ? (
          <EmptyState
            title="No messages yet"
            description="Request a sign-in link on the login page and it will show up here."
            action={
              <a href="/login" className="text-sm font-medium text-brand-600 hover:text-brand-700">
                Go to sign in →
              </a>
            }
          />
        ) : (
          messages.map((message) => {
            const link = firstLink(message.text);
            return (
              <Card key={`${message.sentAt}-${message.to}`} className="p-5">
                <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
                  <p className="font-medium text-slate-900">{message.subject}</p>
                  <time className="text-xs text-slate-500" dateTime={message.sentAt}>
                    {new Date(message.sentAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
                  </time>
                </div>
                <p className="mt-1 text-sm text-slate-500">To: {message.to}</p>
                {link && (
                  <a
                    href={link}
                    className="mt-4 inline-flex rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
                  >
                    Open the link in this message
                  </a>
                )}
                <details className="mt-4">
                  <summary className="cursor-pointer text-sm text-slate-600">Show message</summary>
                  <pre className="mt-3 overflow-x-auto whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-xs text-slate-700">
                    {message.text}
                  </pre>
                </details>
              </Card>
            );
          })
        )}
      </div>
    </div>
  );
}

function firstLink(text: string): string | undefined {
  return /https?:\/\/\S+/.exec(text)?.[0];
}
