import type { Metadata } from "next";
import Link from "next/link";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";

export const metadata: Metadata = { title: "Dashboard" };

const STEPS = [
  { title: "Upload a long video", body: "A stream VOD, podcast or talk — up to 4 hours.", href: "/videos" },
  {
    title: "Review ranked clips",
    body: "Each clip has a virality score and the reasons behind it.",
    href: "/clips",
  },
  { title: "Connect a live stream", body: "Catch chat spikes as they happen.", href: "/streams" },
];

export default async function DashboardPage() {
  const creator = await requireCurrentCreator();
  const greetingName = creator.displayName ?? creator.email.split("@")[0];
  return (
    <>
      <PageHeader
        title={`Welcome, ${greetingName}`}
        description="Your videos, clips and streams at a glance."
        actions={<ButtonLink href="/videos">Upload a video</ButtonLink>}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <EmptyState
            icon={
              <svg
                className="h-6 w-6"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                aria-hidden="true"
              >
                <path
                  d="M15 10.5 20 7.5v9l-5-3M4.5 6h9A1.5 1.5 0 0 1 15 7.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 3 16.5v-9A1.5 1.5 0 0 1 4.5 6Z"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            }
            title="No videos yet — upload one"
            description="Truss finds the best moments in a long video and cuts them into vertical clips ready to post."
            action={<ButtonLink href="/videos">Upload a video</ButtonLink>}
            className="h-full"
          />
        </div>
        <Card>
          <CardHeader title="Getting started" description="Three steps to your first clips." />
          <CardBody className="py-2">
            <ol className="divide-y divide-slate-100">
              {STEPS.map((step, index) => (
                <li key={step.href}>
                  <Link href={step.href} className="group flex gap-3 py-3">
                    <span className="grid h-6 w-6 shrink-0 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600 group-hover:bg-brand-50 group-hover:text-brand-700">
                      {index + 1}
                    </span>
                    <span>
                      <span className="block text-sm font-medium text-slate-900 group-hover:text-brand-700">
                        {step.title}
                      </span>
                      <span className="block text-sm text-slate-500">{step.body}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ol>
          </CardBody>
        </Card>
      </div>
    </>
  );
}
