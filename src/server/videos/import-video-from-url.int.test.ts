import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { testRuntime } from "../../../dev/test/runtime";
import { importVideoFromUrl } from "./import-video-from-url";
import { listVideos } from "./list-videos";

const runtime = testRuntime({ IMPORT_ALLOW_PRIVATE_ADDRESSES: "false" });

describe("importing a URL whose host name resolves to a private address", () => {
  it("is refused (422) without echoing the address the name resolves to", async () => {
    const creatorId = createId("creator");
    // Resolved by this machine's resolver, as a name on an internal network would be.
    const error = await importVideoFromUrl({ runtime, creatorId, url: "http://localhost/talk.mp4" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("validation_failed");
    expect((error as AppError).httpStatus).toBe(422);
    expect((error as AppError).message).toMatch(/only public addresses can be imported/);
    expect((error as AppError).message).not.toMatch(/127\.0\.0\.1|::1|private|local network/);
    expect((await listVideos({ runtime, creatorId })).videos).toEqual([]);
  });
});
