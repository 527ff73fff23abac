import type { Metadata } from "next";
import { ButtonLink } from "@/components/ui/button";
import { CenteredPage } from "@/components/ui/centered-page";

export const metadata: Metadata = { title: "Page not found" };

/** Any address Truss has no page for (a video that is not there has its own, inside the app). */
export default function NotFound() {
  return (
    <CenteredPage className="flex flex-col items-center gap-4 text-center">
      <h1 className="text-xl font-bold tracking-tight text-slate-900">There is no page here</h1>
      <p className="text-sm text-slate-500">The address may be mistyped, or the page has moved.</p>
      <ButtonLink href="/dashboard">Go to your dashboard</ButtonLink>
    </CenteredPage>
  );
}
