import { ButtonLink } from "@/components/ui/button";

/**
 * For a visitor who opens a sign-in link (or its error page) while already signed in as the
 * link's email: the link is not needed, so offer to go where it was going instead of a button
 * that would only spend it, or report it already used. `continuePath` must be a checked path
 * on this site.
 */
export function AlreadySignedIn({ email, continuePath }: { email: string; continuePath: string }) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">You are already signed in</h1>
        <p className="mt-2 break-words text-sm leading-6 text-slate-600">
          This browser is signed in to Truss as <span className="font-medium text-slate-900">{email}</span>,
          so you do not need this link.
        </p>
      </div>
      <ButtonLink href={continuePath} className="w-full">
        Continue
      </ButtonLink>
    </div>
  );
}
