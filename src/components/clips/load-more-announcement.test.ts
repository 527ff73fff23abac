import { describe, expect, it } from "vitest";
import { loadMoreAnnouncement } from "./load-more-announcement";

describe("loadMoreAnnouncement", () => {
  it("says how many clips came and how many are shown", () => {
    expect(loadMoreAnnouncement({ addedCount: 8, shownCount: 32, moreToLoad: true })).toBe(
      "8 more clips loaded, 32 shown.",
    );
    expect(loadMoreAnnouncement({ addedCount: 1, shownCount: 25, moreToLoad: true })).toBe(
      "1 more clip loaded, 25 shown.",
    );
  });

  it("says when the last page came", () => {
    expect(loadMoreAnnouncement({ addedCount: 8, shownCount: 32, moreToLoad: false })).toBe(
      "8 more clips loaded, 32 shown: that is all of them.",
    );
    expect(loadMoreAnnouncement({ addedCount: 0, shownCount: 24, moreToLoad: false })).toBe(
      "No more clips loaded, 24 shown: that is all of them.",
    );
  });
});
