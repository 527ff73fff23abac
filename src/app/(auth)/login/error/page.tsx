import type { Metadata } from "next";
import { Alert } from "@/components/ui/alert";
import { getCurrentCreator } from "@/server/auth/get-current-creator";
import { normalizeEmail } from "@/server/auth/normalize-email";
import { readSignInRetry } from "@/server/auth/sign-in-link";
import { devMailboxPathFor } from "@/server/mail/dev-mailbox";
import { getRuntime } from "@/server/runtime";
import { AlreadySignedIn } from "../already-signed-in";
import { LoginForm } from "../login-form";
import { firstParam } from "../search-params";

export const metadata: Metadata = { title: "Sign-in problem" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Auth.js sends failed sign-ins here with `?error=<type>`. */
const MESSAGES: Record<string, { title: string; body: string }> = {
  Verification: {
    title: "This sign-in link has expired or was already used",
    body: "Each link works once and only for a short time. Ask for a new one below.",
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

/**
 * A refused sign-in. When a link was refused, its email and target come along
 * (`&email&callbackUrl`, added in handle-auth-post.ts), so the new link goes to the same
 * address and leads to the same page. Both are only suggestions: the email prefills the form,
 * and the target is used only if it is a path on this site.
 */
export default async function LoginErrorPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const message = MESSAGES[firstParam(params.error) ?? ""] ?? FALLBACK;
  const retry = readSignInRetry({
    email: firstParam(params.email),
    callbackUrl: firstParam(params.callbackUrl),
  });
  // The link was used by this very browser (a second press, an old tab): nothing to fix.
  const current = await getCurrentCreator();
  if (current !== null && normalizeEmail(current.email) === retry.email) {
    return <AlreadySignedIn email={current.email} continuePath={retry.callbackPath} />;
  }
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
        callbackUrl={retry.callbackPath}
        initialEmail={retry.email ?? ""}
        linkLifetimeMinutes={config.auth.magicLinkTtlMinutes}
        devMailboxPath={devMailboxPathFor(config)}
        submitLabel="Email me a new link"
      />
    </div>
  );
}
