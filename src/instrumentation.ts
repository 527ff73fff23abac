/**
 * Runs once when the Next.js server starts: parse the config now, so a bad or missing
 * variable stops start-up with a message naming it, instead of failing on the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { getConfig } = await import("@/config");
    getConfig();
  }
}
