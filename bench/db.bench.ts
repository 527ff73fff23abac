/**
 * `npm run bench:db` — does a page cost the same in a small and a huge creator partition?
 *
 * Starts DynamoDB Local in memory, fills creator partitions of 100, 5,000 and 50,000 items
 * (videos interleaved with the clips, rank items and chapters a real creator has), then
 * measures fetching page 1 and a deep page of 20 videos: latency (median and p95 of repeated
 * runs) and consumed read capacity. Prints measured figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { parseConfig } from "@/config";
import { encodeCursor } from "@/db/cursor";
import { chaptersKey, clipKey, clipRankKey, creatorPk, LIST_PREFIXES, videoKey } from "@/db/keys";
import { type QueryStats, queryPage, type Table } from "@/db/table";
import { clipIdFor, createId } from "@/lib/ids";
import { createRuntime, tableOf } from "@/server/runtime";
import { findFreePort, startEmbeddedServices } from "../dev/services";

const PARTITION_SIZES = [100, 5_000, 50_000];
const PAGE_SIZE = 20;
const RUNS = 30;

const VideoRow = z.object({ PK: z.string(), SK: z.string(), title: z.string() });

async function fillPartition(table: Table, creatorId: string, totalItems: number): Promise<string[]> {
  // Per video: the video item, its chapters item and two clips with their rank items (6 items).
  const videoSks: string[] = [];
  const items: Record<string, unknown>[] = [];
  const baseTimeMs = Date.parse("2025-01-01T00:00:00Z");
  for (let index = 0; items.length < totalItems; index++) {
    const videoId = createId("video", baseTimeMs + index * 1000);
    const video = videoKey(creatorId, videoId);
    videoSks.push(video.SK);
    const filler = "x".repeat(600);
    items.push({ ...video, type: "Video", title: `Video ${index}`, filler });
    items.push({ ...chaptersKey(creatorId, videoId), type: "Chapters", filler });
    for (const ordinal of [0, 1]) {
      const clipId = clipIdFor(videoId, ordinal);
      const score = (index * 7 + ordinal * 13) % 101;
      items.push({ ...clipKey(creatorId, clipId), type: "Clip", score, filler });
      items.push({ ...clipRankKey(creatorId, score, clipId), type: "ClipRank", filler });
    }
  }
  items.length = totalItems;
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        let requests: Record<string, unknown> | undefined = {
          [table.tableName]: batch.map((Item) => ({ PutRequest: { Item } })),
        };
        while (requests && Object.keys(requests).length > 0) {
          const output = await table.documentClient.send(
            new BatchWriteCommand({ RequestItems: requests as never }),
          );
          requests = output.UnprocessedItems as Record<string, unknown> | undefined;
        }
      }
    }),
  );
  return videoSks.filter((_, index) => index * 6 < totalItems);
}

function percentile(sortedMs: number[], fraction: number): number {
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(sortedMs.length * fraction))]!;
}

async function measure(table: Table, creatorId: string, cursor: string | null) {
  const latenciesMs: number[] = [];
  // Warm-up: JIT on both sides and DynamoDB Local's page cache, so runs compare like with like.
  for (let run = 0; run < 5; run++) {
    await queryPage({
      table,
      pk: creatorPk(creatorId),
      range: { kind: "prefix", prefix: LIST_PREFIXES.videos },
      list: "videos",
      limit: PAGE_SIZE,
      cursor,
      newestFirst: true,
      schema: VideoRow,
    });
  }
  let stats: QueryStats = { count: 0, scannedCount: 0, consumedReadUnits: 0 };
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await queryPage({
      table,
      pk: creatorPk(creatorId),
      range: { kind: "prefix", prefix: LIST_PREFIXES.videos },
      list: "videos",
      limit: PAGE_SIZE,
      cursor,
      newestFirst: true,
      schema: VideoRow,
      onStats: (measured) => {
        stats = measured;
      },
    });
    latenciesMs.push(performance.now() - started);
  }
  latenciesMs.sort((a, b) => a - b);
  return { medianMs: percentile(latenciesMs, 0.5), p95Ms: percentile(latenciesMs, 0.95), stats };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "truss-bench-db-"));
  const config = parseConfig({
    TRUSS_DATA_DIR: dataDir,
    TRUSS_DYNAMODB_PORT: String(await findFreePort()),
    TRUSS_S3_PORT: String(await findFreePort()),
    TRUSS_SQS_PORT: String(await findFreePort()),
    AUTH_SECRET: "bench-secret-0123456789abcdef0123456789",
  });
  const services = await startEmbeddedServices({ config, inMemory: true });
  const table = tableOf(createRuntime(config));
  try {
    console.log(`Page of ${PAGE_SIZE} videos, newest first; ${RUNS} runs each; DynamoDB Local (in memory)\n`);
    console.log(
      "partition items | videos | page      | median ms | p95 ms | items read | scanned | read units",
    );
    for (const size of PARTITION_SIZES) {
      const creatorId = createId("creator");
      const fillStarted = performance.now();
      const videoSks = await fillPartition(table, creatorId, size);
      const fillSeconds = (performance.now() - fillStarted) / 1000;
      // Deep page: starts halfway down the newest-first list.
      const newestFirst = [...videoSks].reverse();
      const middleSk = newestFirst[Math.floor(newestFirst.length / 2)]!;
      const deepCursor = encodeCursor(
        { secret: table.cursorSecret, pk: creatorPk(creatorId), list: "videos" },
        { PK: creatorPk(creatorId), SK: middleSk },
      );
      for (const [label, cursor] of [
        ["page 1", null],
        ["deep page", deepCursor],
      ] as const) {
        const { medianMs, p95Ms, stats } = await measure(table, creatorId, cursor);
        console.log(
          `${String(size).padStart(15)} | ${String(videoSks.length).padStart(6)} | ${label.padEnd(9)} | ${medianMs.toFixed(2).padStart(9)} | ${p95Ms.toFixed(2).padStart(6)} | ${String(stats.count).padStart(10)} | ${String(stats.scannedCount).padStart(7)} | ${stats.consumedReadUnits.toFixed(1).padStart(10)}`,
        );
      }
      console.log(`${"".padStart(15)}   (filled in ${fillSeconds.toFixed(1)} s)`);
    }
  } finally {
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
