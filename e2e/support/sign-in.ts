import type { Page } from "playwright-core";

/**
 * Opens an emailed sign-in link and clicks through its confirm page, as a person does: the
 * link itself uses nothing up; only the "Sign in" button (a form POST) spends the token.
 */
export async function openSignInLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole("heading", { name: /^Sign in as / }).waitFor();
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}
