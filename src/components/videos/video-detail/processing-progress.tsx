import Link from "next/link";
import { Card } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { Spinner } from "@/components/ui/spinner";
import type { VideoView } from "../video-api";
import { isImporting } from "../video-standing";

type ProcessingStatus = "UPLOADING" | "UPLOADED" | "QUEUED" | "ANALYZING" | "RENDERING";

type Step = { status: ProcessingStatus | "READY"; label: string; hint: string };

/** The first step is how the file came: sent by a page, or fetched by the worker from a URL. */
const FIRST_STEP: Record<VideoView["origin"], Step> = {
  upload: { status: "UPLOADED", label: "Uploaded", hint: "Checking the file" },
  import: { status: "UPLOADED", label: "Imported", hint: "Downloading from the URL" },
};

const LATER_STEPS: Step[] = [
  { status: "QUEUED", label: "Queued", hint: "Waiting for a worker" },
  { status: "ANALYZING", label: "Analyzing", hint: "Sound, motion and the best moments" },
  { status: "RENDERING", label: "Rendering", hint: "Cutting 9:16 clips" },
  { status: "READY", label: "Ready", hint: "Clips to review" },
];

function stepIndexOf(status: ProcessingStatus): number {
  if (status === "UPLOADING" || status === "UPLOADED") return 0;
  return LATER_STEPS.findIndex((step) => step.status === status) + 1;
}

/**
 * Where a video is in the pipeline: the steps, the current stage and its progress. The first
 * time, it says the creator may leave and whether an email will tell them it is done; when
 * other clips were asked for, what happens meanwhile to the clips shown below.
 */
export function ProcessingProgress({
  status,
  origin,
  stage,
  progressPercent,
  clipsShown = false,
  firstProcessing,
  emailWhenDoneTo = null,
}: {
  status: ProcessingStatus;
  /** How the file came: uploaded by a page, or imported from a URL by the worker (no page needed). */
  origin: VideoView["origin"];
  stage: string | null;
  progressPercent: number;
  clipsShown?: boolean;
  /** Not yet ready once: its first clips are being made (not other clips asked for later). */
  firstProcessing: boolean;
  /** The address Truss emails when a first processing is done (null: it will not). */
  emailWhenDoneTo?: string | null;
}) {
  const steps = [FIRST_STEP[origin], ...LATER_STEPS];
  const current = stepIndexOf(status);
  const importing = isImporting({ status, origin });
  const waitingForUpload = status === "UPLOADING" && !importing;
  const percent = Math.round(Math.max(0, Math.min(100, progressPercent)));
  return (
    <Card className="overflow-hidden">
      <div className="flex flex-col gap-6 px-5 py-6 sm:px-8">
        <ol className="grid grid-cols-5 gap-2" aria-label="Processing steps">
          {steps.map((step, index) => {
            const done = index < current;
            const active = index === current;
            return (
              <li
                key={step.status}
                className="flex flex-col items-center gap-2 text-center"
                aria-current={active ? "step" : undefined}
              >
                <div className="flex w-full items-center">
                  <span
                    className={cx(
                      "h-0.5 flex-1",
                      index === 0 ? "invisible" : done || active ? "bg-brand-500" : "bg-slate-200",
                    )}
                  />
                  <span
                    className={cx(
                      "grid h-8 w-8 shrink-0 place-items-center rounded-full text-xs font-semibold",
                      done && "bg-brand-600 text-white",
                      active && "bg-brand-50 text-brand-700 ring-2 ring-brand-500",
                      !done && !active && "bg-slate-100 text-slate-500",
                    )}
                  >
                    {done ? (
                      <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                        <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
                      </svg>
                    ) : active ? (
                      <Spinner className="h-4 w-4" label={step.label} />
                    ) : (
                      index + 1
                    )}
                  </span>
                  <span
                    className={cx(
                      "h-0.5 flex-1",
                      index === steps.length - 1 ? "invisible" : done ? "bg-brand-500" : "bg-slate-200",
                    )}
                  />
                </div>
                <span
                  className={cx(
                    "text-xs font-medium sm:text-sm",
                    active ? "text-slate-900" : "text-slate-500",
                  )}
                >
                  {step.label}
                </span>
                <span className="hidden text-xs text-slate-500 sm:block">{step.hint}</span>
              </li>
            );
          })}
        </ol>

        <div className="flex flex-col gap-2">
          <div className="flex items-baseline justify-between gap-4 text-sm">
            <span className="font-medium text-slate-800">
              {importing
                ? `Importing from the URL${stage ? `: ${stage}` : "…"}`
                : waitingForUpload
                  ? "Waiting for the upload to finish"
                  : (stage ?? steps[current]?.hint ?? "Working")}
            </span>
            <span className="text-slate-500 tabular-nums">{percent}%</span>
          </div>
          <div
            className="h-2.5 overflow-hidden rounded-full bg-slate-100"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-label="Processing progress"
          >
            <div
              className="h-full rounded-full bg-brand-500 transition-[width] duration-700 ease-out"
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="text-xs text-slate-500">
            This page updates by itself.{" "}
            {waitingForUpload ? (
              // Unlike processing, an upload does not carry on without its page: the browser
              // that chose the file sends it.
              <>
                The file is sent by the page where it was chosen; keep that page open. If it was closed,
                choose the same file again on{" "}
                <Link href="/videos" className="font-medium text-brand-700 hover:underline">
                  Videos
                </Link>{" "}
                and the upload resumes where it stopped.
              </>
            ) : firstProcessing ? (
              <>
                You can leave it — processing carries on
                {emailWhenDoneTo && (
                  <>
                    , and Truss emails <span className="font-medium text-slate-700">{emailWhenDoneTo}</span>{" "}
                    when the clips are ready
                  </>
                )}
                .{clipsShown && " Each clip below appears as soon as it is rendered."}
              </>
            ) : status === "RENDERING" ? (
              "Each clip below changes once its new render is ready."
            ) : (
              "The clips below stay as they are until the new moments are found."
            )}
          </p>
        </div>
      </div>
    </Card>
  );
}
