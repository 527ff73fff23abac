import Link from "next/link";
import { DismissableDetails } from "./dismissable-details";

/**
 * The signed-in creator's menu: who is signed in, Settings, and sign out. Built on
 * <details> so it opens without client JavaScript (and closes as menus do with it); sign out is
 * a server action form.
 */
export function UserMenu({
  displayName,
  email,
  signOutAction,
}: {
  displayName: string | null;
  email: string;
  signOutAction: () => Promise<void>;
}) {
  const initial = (displayName ?? email).trim().charAt(0).toUpperCase() || "?";
  return (
    <DismissableDetails className="group relative">
      <summary
        className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 pr-2 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden"
        aria-label="Account menu"
      >
        <span className="grid h-8 w-8 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
          {initial}
        </span>
        <span className="hidden max-w-40 truncate text-sm font-medium text-slate-700 sm:block">
          {displayName ?? email}
        </span>
        <svg
          className="h-4 w-4 text-slate-400 transition-transform group-open:rotate-180"
          viewBox="0 0 20 20"
          fill="currentColor"
          aria-hidden="true"
        >
          <path
            fillRule="evenodd"
            d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z"
            clipRule="evenodd"
          />
        </svg>
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-64 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg">
        <div className="border-b border-slate-100 px-4 py-3">
          <p className="truncate text-sm font-medium text-slate-900">{displayName ?? "Signed in"}</p>
          <p className="truncate text-sm text-slate-500">{email}</p>
        </div>
        <div className="p-1">
          <Link
            href="/settings"
            className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
          >
            Settings
          </Link>
          <form action={signOutAction}>
            <button
              type="submit"
              className="block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100"
            >
              Sign out
            </button>
          </form>
        </div>
      </div>
    </DismissableDetails>
  );
}
