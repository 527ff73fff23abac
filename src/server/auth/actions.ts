"use server";

import { redirect } from "next/navigation";
import { getRuntime } from "@/server/runtime";
import { signOut } from "./auth";
import { getCurrentCreator } from "./get-current-creator";
import { signOutEverywhere } from "./sign-out-everywhere";

/** Ends this browser's session (Auth.js deletes it from the table and clears the cookie). */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login?signedOut=1" });
}

/** Ends every session of the signed-in creator, this one included. */
export async function signOutEverywhereAction(): Promise<void> {
  const creator = await getCurrentCreator();
  if (!creator) redirect("/login");
  await signOutEverywhere({ runtime: getRuntime(), creatorId: creator.creatorId });
  await signOut({ redirectTo: "/login?signedOut=everywhere" });
}
