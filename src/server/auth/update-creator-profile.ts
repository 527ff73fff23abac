import "server-only";
import { z } from "zod";
import { type Creator, updateCreator } from "@/db/repos/creator-repo";
import { type Runtime, tableOf } from "@/server/runtime";

const timezones = new Set(Intl.supportedValuesOf("timeZone"));

export const ProfileChanges = z.object({
  displayName: z
    .string()
    .trim()
    .max(80, "Keep your name under 80 characters.")
    .transform((name) => (name === "" ? null : name)),
  timezone: z
    .string()
    .refine((zone) => zone === "UTC" || timezones.has(zone), "Choose a time zone from the list."),
  emailWhenClipsReady: z.boolean(),
  /** The profile version the form was loaded with; a concurrent edit makes this a conflict. */
  expectedVersion: z.coerce.number().int().positive(),
});

export type ProfileChanges = z.input<typeof ProfileChanges>;

/**
 * Updates the creator's display name, time zone and whether Truss emails them when clips are
 * ready, refusing to overwrite a newer edit.
 */
export async function updateCreatorProfile(options: {
  runtime: Runtime;
  creatorId: string;
  changes: ProfileChanges;
}): Promise<Creator> {
  const changes = ProfileChanges.parse(options.changes);
  return updateCreator({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    changes: {
      displayName: changes.displayName,
      timezone: changes.timezone,
      emailWhenClipsReady: changes.emailWhenClipsReady,
    },
    expectedVersion: changes.expectedVersion,
  });
}
