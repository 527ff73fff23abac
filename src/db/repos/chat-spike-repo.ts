import { z } from "zod";
import { chatSpikeKey, chatSpikeSkPrefixForStream, creatorPk } from "../keys";
import {
  isConditionFailure,
  itemOf,
  type Page,
  putNew,
  type QueryStats,
  queryPage,
  type Table,
} from "../table";

/**
 * A burst of live-chat activity during a stream, detected by the stream worker. Keyed by
 * stream and time, so one stream's spikes are one key range in time order.
 */
export const ChatSpike = z.object({
  streamId: z.string(),
  creatorId: z.string(),
  /** ISO timestamp of the spike's peak. */
  at: z.string(),
  /** Seconds since the stream started, to line up with the recording. */
  offsetSeconds: z.number().nonnegative(),
  messagesPerMinute: z.number().nonnegative(),
  /** How far above the stream's running baseline (e.g. 4.2 = 4.2×). */
  intensity: z.number().nonnegative(),
  sampleMessages: z.array(z.string()).max(10),
  createdAt: z.string(),
});
export type ChatSpike = z.infer<typeof ChatSpike>;

/** Records a spike; recording the same spike twice (a retried write) is a no-op. */
export async function recordChatSpike({
  table,
  spike,
}: {
  table: Table;
  spike: Omit<ChatSpike, "createdAt">;
}) {
  const record: ChatSpike = { ...spike, createdAt: new Date().toISOString() };
  try {
    await putNew({
      table,
      item: itemOf(chatSpikeKey(spike.creatorId, spike.streamId, spike.at), "ChatSpike", record),
      conflictMessage: "This spike is already recorded.",
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return record;
}

/** One stream's spikes in time order. */
export function listChatSpikes(options: {
  table: Table;
  creatorId: string;
  streamId: string;
  limit: number;
  cursor?: string | null;
  onStats?: (stats: QueryStats) => void;
}): Promise<Page<ChatSpike>> {
  return queryPage({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: chatSpikeSkPrefixForStream(options.streamId) },
    list: `chatSpikes:${options.streamId}`,
    limit: options.limit,
    cursor: options.cursor,
    schema: ChatSpike,
    onStats: options.onStats,
  });
}
