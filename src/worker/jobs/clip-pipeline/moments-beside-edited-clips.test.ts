import { describe, expect, it } from "vitest";
import { momentsBesideEditedClips, momentsToFindBeside } from "./moments-beside-edited-clips";

const moment = (ordinal: number, startSeconds: number, endSeconds: number) => ({
  ordinal,
  startSeconds,
  endSeconds,
  title: `moment ${ordinal}`,
});

describe("momentsBesideEditedClips", () => {
  const moments = [moment(0, 100, 130), moment(1, 10, 40), moment(2, 200, 220), moment(3, 50, 80)];

  it("leaves the moments as they are when no clip was edited", () => {
    expect(momentsBesideEditedClips(moments, [], 4)).toEqual(moments);
  });

  it("leaves out the moments an edited clip overlaps and gives the rest the ordinals it does not hold", () => {
    // The creator trimmed clip 1 to 12–35 s (it still covers moment 1) and clip 6 of an earlier
    // analysis to 195–205 s (it overlaps moment 2).
    const edited = [
      { ordinal: 1, startSeconds: 12, endSeconds: 35 },
      { ordinal: 6, startSeconds: 195, endSeconds: 205 },
    ];

    const placed = momentsBesideEditedClips(moments, edited, 4);

    expect(placed.map((m) => [m.ordinal, m.title])).toEqual([
      [0, "moment 0"],
      [2, "moment 3"],
    ]);
    expect(placed[1]).toMatchObject({ startSeconds: 50, endSeconds: 80 });
  });

  it("keeps a moment that only touches an edited clip (a shared boundary frame is no overlap)", () => {
    const placed = momentsBesideEditedClips(
      moments,
      [{ ordinal: 0, startSeconds: 130.3, endSeconds: 150 }],
      4,
    );

    expect(placed.map((m) => [m.ordinal, m.title])).toEqual([
      [1, "moment 0"],
      [2, "moment 1"],
      [3, "moment 2"],
      [4, "moment 3"],
    ]);
  });

  it("keeps the best `count` of the moments left: the analysis found one more per edited clip", () => {
    const edited = [{ ordinal: 4, startSeconds: 15, endSeconds: 35 }];
    expect(momentsToFindBeside(3, edited)).toBe(4);
    expect(momentsToFindBeside(20, edited)).toBe(20);

    const placed = momentsBesideEditedClips(moments, edited, 3);

    // Moment 1 is the trimmed clip's; moment 3, fourth best, stands in for it.
    expect(placed.map((m) => [m.ordinal, m.title])).toEqual([
      [0, "moment 0"],
      [1, "moment 2"],
      [2, "moment 3"],
    ]);
  });

  it("does not offer again a moment overlapping a clip the creator deleted", () => {
    // The creator deleted a clip of 95–125 s (moment 0 now); one edited clip holds ordinal 0.
    const deleted = [{ startSeconds: 95, endSeconds: 125 }];
    const edited = [{ ordinal: 0, startSeconds: 0, endSeconds: 5 }];
    expect(momentsToFindBeside(2, edited, deleted)).toBe(4);

    const placed = momentsBesideEditedClips(moments, edited, 2, deleted);

    expect(placed.map((m) => [m.ordinal, m.title])).toEqual([
      [1, "moment 1"],
      [2, "moment 2"],
    ]);
  });

  it("places the same moments under the same ordinals every time (a redelivered job)", () => {
    const edited = [{ ordinal: 0, startSeconds: 0, endSeconds: 5 }];
    expect(momentsBesideEditedClips(moments, edited, 4)).toEqual(
      momentsBesideEditedClips([...moments].reverse(), edited, 4),
    );
  });
});
