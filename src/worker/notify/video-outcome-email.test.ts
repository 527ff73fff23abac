import { describe, expect, it } from "vitest";
import { renderVideoOutcomeEmail } from "./video-outcome-email";

const urls = {
  videoUrl: "https://truss.example/videos/vid_1",
  settingsUrl: "https://truss.example/settings",
};
const clip = (title: string, score: number, startSeconds: number, endSeconds: number, ordinal = 0) => ({
  clipId: `clip_${score}`,
  ordinal,
  title,
  score,
  startSeconds,
  endSeconds,
});

describe("renderVideoOutcomeEmail", () => {
  it("lists the best three clips, best first, with length and score, and links to the video", () => {
    const message = renderVideoOutcomeEmail({
      to: "ada@example.test",
      videoName: "stream.mp4",
      outcome: {
        kind: "ready",
        clips: [
          clip("Quiet bit", 12, 0, 20),
          clip("Big laugh", 81, 100, 130),
          clip("Fast action", 64, 200, 272),
          clip("Loud burst", 70, 300, 315),
        ],
      },
      ...urls,
    });
    expect(message.to).toBe("ada@example.test");
    expect(message.subject).toBe("4 clips from “stream.mp4” are ready");
    expect(message.text).toContain(
      [
        "stream.mp4 has 4 clips, ranked. The best 3:",
        "",
        "- Big laugh (30 s), score 81",
        "- Loud burst (15 s), score 70",
        "- Fast action (1 min 12 s), score 64",
        "",
        "Watch, trim and download them:",
        urls.videoUrl,
      ].join("\n"),
    );
    expect(message.text).not.toContain("Quiet bit");
    expect(message.text).toContain(urls.settingsUrl);
    expect(message.html).toContain(`href="${urls.videoUrl}"`);
    expect(message.html.indexOf("Big laugh")).toBeLessThan(message.html.indexOf("Fast action"));
    // Each listed clip links to its card on the video's page.
    expect(message.html).toContain(`href="${urls.videoUrl}#clip-clip_81"`);
  });

  it("lists clips of the same score in the analysis's order, as the video's page does", () => {
    const message = renderVideoOutcomeEmail({
      to: "a@b.test",
      videoName: "tie.mp4",
      outcome: {
        kind: "ready",
        clips: [clip("Ranked second", 50, 40, 55, 1), clip("Ranked first", 50, 0, 15, 0)],
      },
      ...urls,
    });
    expect(message.text).toContain("- Ranked first (15 s), score 50\n- Ranked second (15 s), score 50\n");
  });

  it("says one clip in the singular, and what happened when there are none", () => {
    const one = renderVideoOutcomeEmail({
      to: "a@b.test",
      videoName: "talk.mov",
      outcome: { kind: "ready", clips: [clip("The point", 55, 10, 40)] },
      ...urls,
    });
    expect(one.subject).toBe("1 clip from “talk.mov” is ready");
    expect(one.text).toMatch(/^talk\.mov has 1 clip, ranked:\n\n- The point \(30 s\), score 55\n/);

    const none = renderVideoOutcomeEmail({
      to: "a@b.test",
      videoName: "flat.mp4",
      outcome: { kind: "ready", clips: [] },
      ...urls,
    });
    expect(none.subject).toBe("“flat.mp4” is analysed: no clips this time");
    expect(none.text).toMatch(/no moment stood out enough to make a clip/);
    expect(none.text).toContain(`Open the video:\n${urls.videoUrl}`);
  });

  it("gives the reason a video failed", () => {
    const message = renderVideoOutcomeEmail({
      to: "a@b.test",
      videoName: "broken.mp4",
      outcome: { kind: "failed", reason: "The file ends before its first frame." },
      ...urls,
    });
    expect(message.subject).toBe("Truss could not make clips from “broken.mp4”");
    expect(message.text).toMatch(
      /^Truss could not make clips from broken\.mp4\. The file ends before its first frame\.\n/,
    );
    expect(message.html).toContain("The file ends before its first frame.");
  });

  it("escapes a file name and a title so they cannot inject markup", () => {
    const message = renderVideoOutcomeEmail({
      to: "a@b.test",
      videoName: '<img src=x onerror="alert(1)">.mp4',
      outcome: { kind: "ready", clips: [clip("<script>alert(2)</script>", 50, 0, 15)] },
      ...urls,
    });
    expect(message.html).not.toContain("<img src=x");
    expect(message.html).not.toContain("<script>");
    expect(message.html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });
});
