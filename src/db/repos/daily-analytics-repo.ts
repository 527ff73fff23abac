import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { creatorPk, dailyAnalyticsKey } from "../keys";
import { type QueryStats, queryAllItems, type Table } from "../table";

/**
 * Daily counters per creator (`ANALYTICS#DAILY#<yyyy-mm-dd>`). Counters are updated with
 * DynamoDB's atomic ADD, so concurrent workers never lose an increment and no read is needed.
 */
export const DAILY_COUNTERS = [
  "videosUploaded",
  "videosProcessed",
  "clipsCreated",
  "clipsPublished",
  "minutesAnalyzed",
  "chatSpikes",
] as const;

export type DailyCounter = (typeof DAILY_COUNTERS)[number];

const counter = z.number().default(0);
export const DailyAnalytics = z.object({
  date: z.string(),
  videosUploaded: counter,
  videosProcessed: counter,
  clipsCreated: counter,
  clipsPublished: counter,
  minutesAnalyzed: counter,
  chatSpikes: counter,
}) satisfies z.ZodType<{ date: string } & Record<DailyCounter, number>>;
export type DailyAnalytics = z.infer<typeof DailyAnalytics>;

/** Adds to today's (or `isoDate`'s) counters, creating the day's item on first use. */
export async function incrementDailyCounters({
  table,
  creatorId,
  isoDate,
  counters,
}: {
  table: Table;
  creatorId: string;
  isoDate: string;
  counters: Partial<Record<DailyCounter, number>>;
}): Promise<void> {
  const entries = Object.entries(counters).filter(
    (entry): entry is [DailyCounter, number] =>
      (DAILY_COUNTERS as readonly string[]).includes(entry[0]) && Number.isFinite(entry[1]) && entry[1] !== 0,
  );
  if (entries.length === 0) return;
  await table.documentClient.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: dailyAnalyticsKey(creatorId, isoDate),
      UpdateExpression: `SET #type = :type, #date = :date, updatedAt = :now ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(", ")}`,
      ExpressionAttributeNames: {
        "#type": "type",
        "#date": "date",
        ...Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      },
      ExpressionAttributeValues: {
        ":type": "DailyAnalytics",
        ":date": isoDate,
        ":now": new Date().toISOString(),
        ...Object.fromEntries(entries.map(([, value], index) => [`:c${index}`, value])),
      },
    }),
  );
}

/** Daily metrics for a date range, oldest first (one Query on a key range). */
export async function listDailyAnalytics({
  table,
  creatorId,
  fromIsoDate,
  toIsoDate,
  onStats,
}: {
  table: Table;
  creatorId: string;
  fromIsoDate: string;
  toIsoDate: string;
  onStats?: (stats: QueryStats) => void;
}): Promise<DailyAnalytics[]> {
  const from = dailyAnalyticsKey(creatorId, fromIsoDate).SK;
  const to = dailyAnalyticsKey(creatorId, toIsoDate).SK;
  // A range is at most a few hundred small items: returned whole.
  return queryAllItems({
    table,
    pk: creatorPk(creatorId),
    range: { kind: "between", from, to },
    schema: DailyAnalytics,
    onStats,
  });
}
