import { describe, expect, it } from "vitest";
import { clipDownloadFilename } from "./clip-download-filename";

/** The clip's range, where the test is not about it. */
const range = { startSeconds: 15, endSeconds: 35 };

describe("clipDownloadFilename", () => {
  it("names the source video, the clip's rank and its title", () => {
    expect(
      clipDownloadFilename({
        ...range,
        videoTitle: "planted-150s.mp4",
        ordinal: 0,
        title: "Loud burst at 0:15",
      }),
    ).toBe("planted-150s-clip-1-loud-burst-at-0-15.mp4");
  });

  it("gives clip #1 of two videos two names", () => {
    const clip = { ...range, ordinal: 0, title: "Loud burst at 0:15" };
    expect(clipDownloadFilename({ ...clip, videoTitle: "stream-monday.mp4" })).not.toBe(
      clipDownloadFilename({ ...clip, videoTitle: "stream-tuesday.mp4" }),
    );
  });

  it("keeps lowercase ASCII letters, digits and single hyphens only", () => {
    const name = clipDownloadFilename({
      ...range,
      videoTitle: "Café Talk (Final) v2.MOV",
      ordinal: 2,
      title: "“So this is the moment…” at 5:10",
    });
    expect(name).toBe("cafe-talk-final-v2-clip-3-so-this-is-the-moment-at-5-10.mp4");
    expect(name).toMatch(/^[a-z0-9-]+\.mp4$/);
  });

  it("reads dots, underscores and spaces in a file name as word breaks", () => {
    expect(
      clipDownloadFilename({
        ...range,
        videoTitle: "my_talk.final cut.mkv",
        ordinal: 0,
        title: "Rapid cuts",
      }),
    ).toBe("my-talk-final-cut-clip-1-rapid-cuts.mp4");
  });

  it("bounds the length, cutting long names at a word", () => {
    const name = clipDownloadFilename({
      ...range,
      videoTitle: `${"Very long livestream recording of the whole weekend tournament ".repeat(3)}.mp4`,
      ordinal: 11,
      title:
        "“Welcome back everyone. Today we are going to look at the final match of the season…” at 1:02:03",
    });
    expect(name.length).toBeLessThanOrEqual(100);
    expect(name).toBe(
      "very-long-livestream-recording-clip-12-welcome-back-everyone-today-we-are-going-to-look.mp4",
    );
  });

  it("leaves out a name with nothing to keep, and never starts or doubles a hyphen", () => {
    expect(clipDownloadFilename({ ...range, videoTitle: "日本語.mp4", ordinal: 0, title: "!!!" })).toBe(
      "clip-1.mp4",
    );
    expect(
      clipDownloadFilename({
        ...range,
        videoTitle: "-- draft --.mp4",
        ordinal: 0,
        title: "  Fast   action  ",
      }),
    ).toBe("draft-clip-1-fast-action.mp4");
  });

  it("names a render of an earlier range for the range it shows, not the new range's title", () => {
    const clip = {
      videoTitle: "planted-150s.mp4",
      ordinal: 0,
      title: "Loud burst at 1:12",
      startSeconds: 72,
      endSeconds: 90,
    };
    expect(clipDownloadFilename(clip, { startSeconds: 70, endSeconds: 90 })).toBe(
      "planted-150s-clip-1-1-10-to-1-30.mp4",
    );
    expect(clipDownloadFilename(clip, { startSeconds: 72, endSeconds: 90 })).toBe(
      "planted-150s-clip-1-loud-burst-at-1-12.mp4",
    );
  });
});
