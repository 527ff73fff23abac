import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { DEFAULT_AFTER_SIGN_IN_PATH, toSafeCallbackPath } from "@/server/auth/callback-url";
import { getCurrentCreator } from "@/server/auth/get-current-creator";
import { devMailboxPathFor } from "@/server/mail/dev-mailbox";
import { getRuntime } from "@/server/runtime";
import { LoginForm } from "./login-form";
import { firstParam } from "./search-params";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = toSafeCallbackPath(firstParam(params.callbackUrl)) ?? DEFAULT_AFTER_SIGN_IN_PATH;
  if (await getCurrentCreator()) redirect(callbackUrl);
  const { config } = getRuntime();
  const signedOut = firstParam(params.signedOut);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Sign in to Truss</h1>
        <p className="mt-2 text-sm leading-6 text-slate-600">
          Enter your email and we will send you a link to sign in. New here? The same link creates your
          account.
        </p>
      </div>
      {signedOut === "everywhere" && (
        <Alert tone="success" title="Signed out everywhere">
          Every session on every device has ended.
        </Alert>
      )}
      {signedOut === "1" && <Alert tone="success">You are signed out.</Alert>}
      <LoginForm
        callbackUrl={callbackUrl}
        linkLifetimeMinutes={config.auth.magicLinkTtlMinutes}
        devMailboxPath={devMailboxPathFor(config)}
      />
    </div>
  );
}
