"use client";

import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { OutlineIcon } from "@/components/ui/outline-icon";

type FormState =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "sent"; email: string }
  | { kind: "error"; message: string; field?: "email" };

type ErrorBody = { error?: { code?: string; message?: string } };

/**
 * Email → "check your inbox". Posts to the rate-limited sign-in endpoint; every answer the
 * server can give (sent, invalid email, too many requests, unavailable) has its own state.
 */
export function LoginForm({
  callbackUrl,
  initialEmail = "",
  linkLifetimeMinutes,
  devMailboxPath,
  submitLabel = "Email me a sign-in link",
}: {
  callbackUrl: string;
  /** A prefill only (the error page takes it from a refused link); the person can change it. */
  initialEmail?: string;
  linkLifetimeMinutes: number;
  /** Shown in development without SMTP, where mail lands in the local outbox. */
  devMailboxPath?: string;
  submitLabel?: string;
}) {
  const [email, setEmail] = useState(initialEmail);
  const [state, setState] = useState<FormState>({ kind: "idle" });

  async function send(address: string) {
    setState({ kind: "sending" });
    try {
      const response = await fetch("/api/auth/signin/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: address, callbackUrl }),
      });
      if (response.status === 202) {
        setState({ kind: "sent", email: address.trim() });
        return;
      }
      const body = (await response.json().catch(() => ({}))) as ErrorBody;
      const message = body.error?.message ?? "Something went wrong. Please try again.";
      if (response.status === 422)
        setState({ kind: "error", message: cleanFieldMessage(message), field: "email" });
      else setState({ kind: "error", message });
    } catch {
      setState({ kind: "error", message: "We could not reach Truss. Check your connection and try again." });
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(email);
  }

  if (state.kind === "sent") {
    return (
      <div className="flex flex-col gap-5" data-testid="check-inbox">
        <div className="grid h-12 w-12 place-items-center rounded-full bg-brand-50 text-brand-600">
          <OutlineIcon d="M3 7.5 12 13l9-5.5M4.5 5h15A1.5 1.5 0 0 1 21 6.5v11a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5v-11A1.5 1.5 0 0 1 4.5 5Z" />
        </div>
        <div>
          <h2 className="text-xl font-semibold text-slate-900">Check your inbox</h2>
          <p className="mt-2 text-sm leading-6 text-slate-600">
            We sent a sign-in link to <span className="font-medium text-slate-900">{state.email}</span>. It
            works once and expires in {linkLifetimeMinutes} minutes.
          </p>
        </div>
        {devMailboxPath && (
          <Alert tone="info" title="No mail server configured">
            The message is in the local outbox:{" "}
            <a className="font-medium underline" href={devMailboxPath}>
              open the dev mailbox
            </a>
            , or use the link printed in the terminal.
          </Alert>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => void send(state.email)}>
            Send another link
          </Button>
          <Button variant="ghost" onClick={() => setState({ kind: "idle" })}>
            Use a different email
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <Input
        label="Email address"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        required
        autoFocus
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={state.kind === "error" && state.field === "email" ? state.message : null}
      />
      {state.kind === "error" && state.field === undefined && <Alert tone="danger">{state.message}</Alert>}
      <Button type="submit" loading={state.kind === "sending"} className="w-full">
        {state.kind === "sending" ? "Sending…" : submitLabel}
      </Button>
    </form>
  );
}

/** "Invalid input: email: Enter a valid…" → "Enter a valid…". */
function cleanFieldMessage(message: string): string {
  const match = /email: ([^;]+)/.exec(message);
  return match?.[1] ?? message;
}
