import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { testTable } from "../../../dev/test/runtime";
import type { QueryStats } from "../table";
import { createStream, findStreamById, listStreams, updateStreamStatus } from "./stream-repo";

const table = testTable();
const newStream = {
  title: "Friday speedrun",
  platform: "twitch" as const,
  sourceUrl: "https://example.test/live.m3u8",
  chatChannel: "speedy",
};

describe("stream repository", () => {
  it("lists a creator's streams newest first, one Query per page that reads only what it returns", async () => {
    const creatorId = createId("creator");
    const created = [];
    for (let index = 0; index < 5; index++)
      created.push(
        await createStream({ table, creatorId, stream: { ...newStream, title: `Stream ${index}` } }),
      );
    // Another creator's streams share the table but never a page.
    await createStream({ table, creatorId: createId("creator"), stream: newStream });

    const stats: QueryStats[] = [];
    const first = await listStreams({ table, creatorId, limit: 3, onStats: (s) => stats.push(s) });
    const second = await listStreams({
      table,
      creatorId,
      limit: 3,
      cursor: first.nextCursor,
      onStats: (s) => stats.push(s),
    });
    expect([...first.items, ...second.items].map((stream) => stream.title)).toEqual([
      "Stream 4",
      "Stream 3",
      "Stream 2",
      "Stream 1",
      "Stream 0",
    ]);
    expect(second.nextCursor).toBeNull();
    expect(stats).toHaveLength(2);
    for (const stat of stats) expect(stat.scannedCount).toBe(stat.count);
  });

  it("moves status only along allowed transitions, conditionally", async () => {
    const creatorId = createId("creator");
    const stream = await createStream({ table, creatorId, stream: newStream });
    const live = await updateStreamStatus({ table, creatorId, streamId: stream.streamId, to: "LIVE" });
    expect(live.status).toBe("LIVE");
    expect(live.startedAt).not.toBeNull();
    expect(live.version).toBe(2);
    await updateStreamStatus({ table, creatorId, streamId: stream.streamId, to: "ENDED" });
    const error = await updateStreamStatus({ table, creatorId, streamId: stream.streamId, to: "LIVE" }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("conflict");
    expect((await findStreamById({ table, creatorId, streamId: stream.streamId }))?.status).toBe("ENDED");
  });

  it("treats another creator's or an unknown stream as not found", async () => {
    const owner = createId("creator");
    const stream = await createStream({ table, creatorId: owner, stream: newStream });
    expect(
      await findStreamById({ table, creatorId: createId("creator"), streamId: stream.streamId }),
    ).toBeUndefined();
    const error = await updateStreamStatus({
      table,
      creatorId: createId("creator"),
      streamId: stream.streamId,
      to: "LIVE",
    }).catch((caught) => caught);
    expect((error as AppError).code).toBe("not_found");
  });

  it("refuses a cursor from another creator's listing", async () => {
    const creatorA = createId("creator");
    const creatorB = createId("creator");
    for (let index = 0; index < 3; index++)
      await createStream({ table, creatorId: creatorB, stream: newStream });
    const pageOfB = await listStreams({ table, creatorId: creatorB, limit: 1 });
    const error = await listStreams({
      table,
      creatorId: creatorA,
      limit: 1,
      cursor: pageOfB.nextCursor,
    }).catch((caught) => caught);
    expect((error as AppError).httpStatus).toBe(400);
  });

  it("refuses an oversized item with a clear error and writes nothing", async () => {
    const creatorId = createId("creator");
    const error = await createStream({
      table,
      creatorId,
      stream: { ...newStream, title: "x".repeat(500_000) },
    }).catch((caught) => caught);
    expect((error as AppError).code).toBe("payload_too_large");
    expect((await listStreams({ table, creatorId, limit: 10 })).items).toHaveLength(0);
  });
});
