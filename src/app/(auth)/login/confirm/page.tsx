import type { Metadata } from "next";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button";
import { getCurrentCreator } from "@/server/auth/get-current-creator";
import { normalizeEmail } from "@/server/auth/normalize-email";
import {
  readSignInLink,
  SIGN_IN_LINK_PARAMS,
  type SignInLinkProblem,
  signInCallbackPathFor,
} from "@/server/auth/sign-in-link";
import { getRuntime } from "@/server/runtime";
import { AlreadySignedIn } from "../already-signed-in";
import { firstParam } from "../search-params";
import { ConfirmForm } from "./confirm-form";

export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PROBLEMS: Record<SignInLinkProblem, { title: string; body: string }> = {
  incomplete: {
    title: "This sign-in link is incomplete",
    body: "Part of the link is missing, which happens when a mail program breaks a long link in two. Open it straight from the email, or ask for a new one.",
  },
  malformed: {
    title: "This sign-in link is not valid",
    body: "It is not a link Truss sent. Ask for a new one on the sign-in page.",
  },
  off_site_target: {
    title: "This sign-in link points outside Truss",
    body: "After signing in it would send you to a page that is not part of Truss, so it cannot be used. Ask for a new one on the sign-in page.",
  },
};

/**
 * Where the emailed sign-in link leads: "Sign in as <email>" and a button. Opening the page
 * spends nothing, because mail scanners open links before people do; the button is a plain
 * form (no JavaScript needed) that posts to this site's Auth.js callback, a path built from
 * the checked parameters (see src/server/auth/sign-in-link.ts).
 */
export default async function ConfirmSignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const query = new URLSearchParams();
  for (const name of SIGN_IN_LINK_PARAMS) {
    const value = firstParam(params[name]);
    if (value !== undefined) query.set(name, value);
  }
  const { config } = getRuntime();
  const reading = readSignInLink(query, new URL(config.appUrl).origin);

  if (!reading.ok) {
    const problem = PROBLEMS[reading.problem];
    return (
      <div className="flex flex-col gap-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Get a new sign-in link</h1>
        <Alert tone="warning" title={problem.title}>
          {problem.body}
        </Alert>
        <ButtonLink href="/login" className="w-full">
          Request a new sign-in link
        </ButtonLink>
      </div>
    );
  }

  const { link } = reading;
  const current = await getCurrentCreator();
  if (current !== null && normalizeEmail(current.email) === link.email) {
    return <AlreadySignedIn email={current.email} continuePath={link.callbackPath} />;
  }
  // A link can reach someone other than its owner (sent on purpose, to sign them into the
  // sender's account): say so when this browser is already signed in as somebody else, and
  // let them stay who they are.
  const signedInAsOther = current?.email ?? null;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="break-words text-2xl font-bold tracking-tight text-slate-900">
          Sign in as {link.email}
        </h1>
        <p className="mt-2 text-sm leading-6 text-slate-600">
          Press the button to finish signing in to Truss. The link works once.
        </p>
      </div>
      {signedInAsOther && (
        <Alert tone="warning" title={`You are signed in as ${signedInAsOther}`}>
          Switching signs you out of that account and into {link.email}. If you did not ask for this link
          yourself, continue without switching.
        </Alert>
      )}
      <div className="flex flex-col gap-3">
        <ConfirmForm
          action={signInCallbackPathFor(link)}
          label={signedInAsOther ? `Switch to ${link.email}` : "Sign in"}
        />
        {signedInAsOther && (
          <ButtonLink href={link.callbackPath} variant="secondary" className="w-full">
            Continue without switching
          </ButtonLink>
        )}
      </div>
      <p className="text-sm leading-6 text-slate-500">
        Not you, or did not ask to sign in? Close this page: nothing happens until the button is pressed.{" "}
        <a className="font-medium text-brand-600 underline hover:text-brand-700" href="/login">
          Use a different email
        </a>
      </p>
    </div>
  );
}
