import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProcessingProgress } from "./processing-progress";

function stepLabels(origin: "upload" | "import", status: "UPLOADING" | "QUEUED"): string[] {
  const markup = renderToStaticMarkup(
    createElement(ProcessingProgress, {
      status,
      origin,
      stage: null,
      progressPercent: 0,
      firstProcessing: true,
    }),
  );
  return [...markup.matchAll(/<span class="text-xs font-medium sm:text-sm[^"]*">([^<]+)<\/span>/g)].map(
    (match) => match[1]!,
  );
}

describe("ProcessingProgress", () => {
  it("names the first step for how the file came: uploaded, or imported from a URL", () => {
    for (const status of ["UPLOADING", "QUEUED"] as const) {
      expect(stepLabels("upload", status)).toEqual(["Uploaded", "Queued", "Analyzing", "Rendering", "Ready"]);
      expect(stepLabels("import", status)).toEqual(["Imported", "Queued", "Analyzing", "Rendering", "Ready"]);
    }
  });
});
