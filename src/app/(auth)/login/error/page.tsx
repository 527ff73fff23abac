import type { Metadata } from "next";
import { Alert } from "@/components/ui/alert";
import { devMailboxPathFor } from "@/server/mail/dev-mailbox";
import { getRuntime } from "@/server/runtime";
import { LoginForm } from "../login-form";
import { firstParam } from "../search-params";

export const metadata: Metadata = { title: "Sign-in problem" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Auth.js sends failed sign-ins here with `?error=<type>`. */
const MESSAGES: Record<string, { title: string; body: string }> = {
  Verification: {
    title: "This sign-in link has expired or was already used",
    body: "Each link works once and only for a short time. Enter your email to get a new one.",
  },
  AccessDenied: {
    title: "Sign-in was refused",
    body: "This account cannot sign in right now. If you think that is a mistake, ask for a new link.",
  },
};

const FALLBACK = {
  title: "We could not sign you in",
  body: "Something went wrong on our side while signing you in. Please request a new link.",
};

export default async function LoginErrorPage({ searchParams }: { searchParams: SearchParams }) {
  const errorType = firstParam((await searchParams).error) ?? "";
  const message = MESSAGES[errorType] ?? FALLBACK;
  const { config } = getRuntime();
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Get a new sign-in link</h1>
      </div>
      <Alert tone="warning" title={message.title}>
        {message.body}
      </Alert>
      <LoginForm
        callbackUrl="/dashboard"
        linkLifetimeMinutes={config.auth.magicLinkTtlMinutes}
        devMailboxPath={devMailboxPathFor(config)}
        submitLabel="Email me a new link"
      />
    </div>
  );
}
