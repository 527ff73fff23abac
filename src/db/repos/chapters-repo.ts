import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { chaptersKey } from "@/db/keys";
import { assertItemSize, getItem, itemOf, type Table } from "@/db/table";

/**
 * A video's chapters (`CREATOR#<id>` / `CHAPTERS#<videoId>`), one item per video, written by
 * the analysis job. The item also carries the video's interest curve, downsampled to a few
 * hundred points: the video page draws its timeline from this one GetItem instead of reading
 * the full analysis artifact from object storage.
 */

export const ChapterSchema = z.object({
  startSeconds: z.number().nonnegative(),
  endSeconds: z.number().nonnegative(),
  title: z.string(),
});
export type StoredChapter = z.infer<typeof ChapterSchema>;

export const InterestCurveSchema = z.object({
  /** Each value covers this many seconds of the video (≥ 1). */
  secondsPerValue: z.number().positive(),
  /** 0..1, the highest interest within each span (so peaks survive the downsampling). */
  values: z.array(z.number().min(0).max(1)),
});
export type InterestCurve = z.infer<typeof InterestCurveSchema>;

const ChaptersItem = z.object({
  type: z.literal("Chapters"),
  videoId: z.string(),
  chapters: z.array(ChapterSchema),
  interestCurve: InterestCurveSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type VideoChapters = Omit<z.infer<typeof ChaptersItem>, "type">;

/** The most points a stored curve keeps: enough for a page-wide plot, small enough for an item. */
export const MAX_INTEREST_CURVE_POINTS = 720;

// Store (or replace) a video's chapters and interest curve. Idempotent: a redelivered analysis writes the same item.
export async function putVideoChapters(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  chapters: StoredChapter[];
  interestCurve: InterestCurve;
  now?: Date;
}): Promise<VideoChapters> {
  const { table, creatorId, videoId } = options;
  if (options.interestCurve.values.length > MAX_INTEREST_CURVE_POINTS) {
    throw new Error(
      `An interest curve of ${options.interestCurve.values.length} points is over the ${MAX_INTEREST_CURVE_POINTS} stored; downsample it first`,
    );
  }
  const existing = await findVideoChapters({ table, creatorId, videoId });
  const nowIso = (options.now ?? new Date()).toISOString();
  const chapters: VideoChapters = {
    videoId,
    chapters: options.chapters.map((chapter) => ChapterSchema.parse(chapter)),
    interestCurve: InterestCurveSchema.parse(options.interestCurve),
    createdAt: existing?.createdAt ?? nowIso,
    updatedAt: nowIso,
  };
  const item = itemOf(chaptersKey(creatorId, videoId), "Chapters", chapters);
  assertItemSize(item, "chapter list");
  await table.documentClient.send(new PutCommand({ TableName: table.tableName, Item: item }));
  return chapters;
}

/**
 * New titles for a video's stored chapters, in order (the parts stay where they are), written
 * only if the item is still the one read (`expectedUpdatedAt`): false when an analysis wrote
 * others meanwhile, which read the same captions.
 */
export async function retitleVideoChapters(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  titles: string[];
  expectedUpdatedAt: string;
  now?: Date;
}): Promise<boolean> {
  const { table } = options;
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: chaptersKey(options.creatorId, options.videoId),
        UpdateExpression: `SET ${options.titles.map((_, index) => `chapters[${index}].title = :title${index}`).join(", ")}, updatedAt = :now`,
        ConditionExpression: "updatedAt = :expected AND size(chapters) = :count",
        ExpressionAttributeValues: {
          ...Object.fromEntries(options.titles.map((title, index) => [`:title${index}`, title])),
          ":now": (options.now ?? new Date()).toISOString(),
          ":expected": options.expectedUpdatedAt,
          ":count": options.titles.length,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

// The chapters and interest curve of one video (GetItem); undefined until analysis wrote them.
export async function findVideoChapters(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  consistent?: boolean;
}): Promise<VideoChapters | undefined> {
  const item = await getItem({
    table: options.table,
    key: chaptersKey(options.creatorId, options.videoId),
    schema: ChaptersItem,
    consistent: options.consistent,
  });
  if (!item) return undefined;
  const { type: _type, ...chapters } = item;
  return chapters;
}

/**
 * Pure: a per-second curve → at most `maxPoints` values, each the maximum of its span, values
 * clamped to 0..1 and rounded to 3 decimals.
 */
export function downsampleInterestCurve(
  perSecond: readonly number[],
  maxPoints: number = MAX_INTEREST_CURVE_POINTS,
): InterestCurve {
  const secondsPerValue = Math.max(1, Math.ceil(perSecond.length / Math.max(1, maxPoints)));
  const values: number[] = [];
  for (let start = 0; start < perSecond.length; start += secondsPerValue) {
    let highest = 0;
    for (let index = start; index < Math.min(perSecond.length, start + secondsPerValue); index++) {
      const value = perSecond[index] ?? 0;
      if (Number.isFinite(value) && value > highest) highest = value;
    }
    values.push(Math.round(Math.min(1, highest) * 1000) / 1000);
  }
  return { secondsPerValue, values };
}
