/**
 * What a page says when an API call fails. A 401 means the page outlived its session (signed out
 * in another tab, "Sign out everywhere", or expired): the API's own words for it speak to scripts
 * ("…send a personal API token as `Authorization: Bearer <token>`"), not to the creator at the page.
 * Every other answer's message is written for people and is shown as it is.
 */
export const SIGNED_OUT_MESSAGE =
  "You are signed out. Sign in again (in another tab to keep this page), then try again.";

export function pageErrorMessage(status: number, apiMessage: string | undefined): string {
  if (status === 401) return SIGNED_OUT_MESSAGE;
  return apiMessage ?? `The request failed (${status}). Please try again.`;
}
