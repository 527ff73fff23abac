import type { Metadata } from "next";
import { ButtonLink } from "@/components/ui/button";
import { Logo } from "@/components/ui/logo";

export const metadata: Metadata = { title: "Page not found" };

/** Any address Truss has no page for (a video that is not there has its own, inside the app). */
export default function NotFound() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <header>
        <Logo />
      </header>
      <main className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-slate-200 bg-white px-6 py-8 text-center shadow-sm">
        <h1 className="text-xl font-bold tracking-tight text-slate-900">There is no page here</h1>
        <p className="text-sm text-slate-500">The address may be mistyped, or the page has moved.</p>
        <ButtonLink href="/dashboard">Go to your dashboard</ButtonLink>
      </main>
    </div>
  );
}
