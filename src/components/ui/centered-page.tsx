import type { ReactNode } from "react";
import { cx } from "./cx";
import { Logo } from "./logo";

/** A page outside the app's navigation (sign-in, a missing page, an error): the logo over one card. */
export function CenteredPage({
  children,
  footer,
  className,
}: {
  children: ReactNode;
  footer?: ReactNode;
  /** Added to the card's classes. */
  className?: string;
}) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <header className="mb-8">
        <Logo />
      </header>
      <main
        className={cx(
          "w-full max-w-md rounded-2xl border border-slate-200 bg-white px-6 py-8 shadow-sm sm:px-8",
          className,
        )}
      >
        {children}
      </main>
      {footer && <footer className="mt-6 text-center text-xs text-slate-500">{footer}</footer>}
    </div>
  );
}
