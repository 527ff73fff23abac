import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core's browser build, read once. */
let axeSource: string | undefined;

/**
 * The WCAG 2.1 A and AA rules and axe's best practices (landmarks, heading order): what the page
 * shows now, as Chromium renders it (contrast is measured on the real colours).
 */
const RULE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

type Violation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
};

/** Runs axe-core in the page and returns each violation as one readable line per element. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
    };
    return (await axe.run(document, { runOnly: { type: "tag", values: tags } })).violations;
  }, RULE_TAGS);
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${node.target.join(" ")}: ${
          node.failureSummary?.split("\n").slice(1).join(" ").trim() ?? ""
        }`,
    ),
  );
}
