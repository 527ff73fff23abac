import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import { testTable } from "../../../dev/test/runtime";
import type { QueryStats } from "../table";
import { listChatSpikes, recordChatSpike } from "./chat-spike-repo";

const table = testTable();

describe("chat spike repository", () => {
  it("lists one stream's spikes in time order without reading other streams' spikes", async () => {
    const creatorId = createId("creator");
    const streamId = createId("stream");
    const otherStreamId = createId("stream");
    const base = Date.parse("2026-11-29T20:00:00Z");
    for (const [index, id] of [streamId, otherStreamId, streamId, otherStreamId, streamId].entries()) {
      await recordChatSpike({
        table,
        spike: {
          creatorId,
          streamId: id,
          at: new Date(base + index * 60_000).toISOString(),
          offsetSeconds: index * 60,
          messagesPerMinute: 100 + index,
          intensity: 3,
          sampleMessages: ["POG"],
        },
      });
    }
    const stats: QueryStats[] = [];
    const page = await listChatSpikes({
      table,
      creatorId,
      streamId,
      limit: 10,
      onStats: (s) => stats.push(s),
    });
    expect(page.items.map((spike) => spike.offsetSeconds)).toEqual([0, 120, 240]);
    expect(stats[0]).toMatchObject({ count: 3, scannedCount: 3 });
  });

  it("records the same spike once even when the write is retried", async () => {
    const creatorId = createId("creator");
    const streamId = createId("stream");
    const spike = {
      creatorId,
      streamId,
      at: "2026-11-29T21:00:00.000Z",
      offsetSeconds: 5,
      messagesPerMinute: 80,
      intensity: 4,
      sampleMessages: [],
    };
    await recordChatSpike({ table, spike });
    await recordChatSpike({ table, spike });
    expect((await listChatSpikes({ table, creatorId, streamId, limit: 10 })).items).toHaveLength(1);
  });
});
