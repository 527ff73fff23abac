import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { findCreatorById } from "@/db/repos/creator-repo";
import { findActiveSession } from "@/db/repos/session-repo";
import { getRuntime, tableOf } from "@/server/runtime";
import { CALLBACK_PATH_HEADER, loginPathFor } from "./callback-url";
import { hashToken } from "./hash-token";
import { SESSION_COOKIE_NAMES } from "./session-cookie";

export type CurrentCreator = {
  creatorId: string;
  email: string;
  displayName: string | null;
  timezone: string;
  emailWhenClipsReady: boolean;
};

/**
 * The signed-in creator for server components and server actions, or null. Checks the
 * session in the table (the proxy only looked at cookie presence). Cached per request.
 */
export const getCurrentCreator = cache(async (): Promise<CurrentCreator | null> => {
  const cookieStore = await cookies();
  const runtime = getRuntime();
  const table = tableOf(runtime);
  for (const name of SESSION_COOKIE_NAMES) {
    const token = cookieStore.get(name)?.value;
    if (!token) continue;
    const session = await findActiveSession({ table, tokenHash: hashToken(token) });
    if (!session) continue;
    const creator = await findCreatorById({ table, creatorId: session.creatorId });
    if (!creator) return null;
    return {
      creatorId: creator.creatorId,
      email: creator.email,
      displayName: creator.displayName,
      timezone: creator.timezone,
      emailWhenClipsReady: creator.emailWhenClipsReady,
    };
  }
  return null;
});

/** Like getCurrentCreator, but sends a visitor without a valid session to the login page. */
export async function requireCurrentCreator(): Promise<CurrentCreator> {
  const creator = await getCurrentCreator();
  if (creator) return creator;
  // The proxy records the requested path, so the login page can send the creator back.
  const requestedPath = (await headers()).get(CALLBACK_PATH_HEADER);
  redirect(loginPathFor(requestedPath));
}
