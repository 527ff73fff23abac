import type { HandlerRegistry } from "./consumer";

/**
 * Job name → handler module, imported lazily so a worker only loads what it runs.
 * Add a job: define it in catalog.ts, write jobs/<name>.ts exporting a JobHandler, list it here.
 */
export const JOB_HANDLERS: HandlerRegistry = {
  "ingest-video": () => import("./jobs/ingest-video").then((module) => module.ingestVideoJob),
  "import-video": () => import("./jobs/import-video").then((module) => module.importVideoJob),
  "analyze-video": () => import("./jobs/analyze-video").then((module) => module.analyzeVideoJob),
  "render-clip": () => import("./jobs/render-clip").then((module) => module.renderClipJob),
  "sweep-videos": () => import("./jobs/sweep-videos").then((module) => module.sweepVideosJob),
};
