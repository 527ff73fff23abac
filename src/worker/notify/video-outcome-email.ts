import { formatCount } from "@/lib/format-count";
import { formatLength } from "@/lib/format-length";
import { EMAIL_STYLES, escapeHtml, renderEmailHtml } from "@/mail/email-html";
import type { MailMessage } from "@/mail/mail-message";
import { bestFirst } from "@/server/clips/best-first";

/** Clips an email lists: enough to show what is waiting without becoming the page itself. */
const EMAILED_CLIPS = 3;

export type EmailedClip = {
  clipId: string;
  /** Its place in the analysis (0 = ranked first), which orders clips of the same score. */
  ordinal: number;
  title: string;
  score: number;
  startSeconds: number;
  endSeconds: number;
};

export type VideoOutcome = { kind: "ready"; clips: EmailedClip[] } | { kind: "failed"; reason: string };

/**
 * The email that tells a creator a video is done: its best clips with their scores, in the
 * video page's order (bestFirst), each linked to its card there, and a link to the page; or why
 * it could not be clipped. A plain-text part that works everywhere and an HTML part with inline
 * styles only, as the sign-in email.
 */
export function renderVideoOutcomeEmail(options: {
  to: string;
  videoName: string;
  outcome: VideoOutcome;
  /** The video's page. */
  videoUrl: string;
  /** Where the creator turns these emails off. */
  settingsUrl: string;
  appName?: string;
}): MailMessage {
  const { videoName, outcome, videoUrl, settingsUrl } = options;
  const appName = options.appName ?? "Truss";
  const best =
    outcome.kind === "ready"
      ? outcome.clips
          .map((clip) => ({ ...clip, rank: clip.ordinal + 1 }))
          .sort(bestFirst)
          .slice(0, EMAILED_CLIPS)
      : [];
  const clipCount = outcome.kind === "ready" ? outcome.clips.length : 0;

  const subject =
    outcome.kind === "failed"
      ? `Truss could not make clips from “${videoName}”`
      : clipCount === 0
        ? `“${videoName}” is analysed: no clips this time`
        : `${formatCount(clipCount, "clip")} from “${videoName}” ${clipCount === 1 ? "is" : "are"} ready`;
  const lead =
    outcome.kind === "failed"
      ? `Truss could not make clips from ${videoName}. ${outcome.reason}`
      : clipCount === 0
        ? `Truss analysed ${videoName}, but no moment stood out enough to make a clip. Its page can ask for clips of another length.`
        : clipCount > best.length
          ? `${videoName} has ${formatCount(clipCount, "clip")}, ranked. The best ${best.length}:`
          : `${videoName} has ${formatCount(clipCount, "clip")}, ranked:`;
  const action =
    outcome.kind === "ready" && clipCount > 0 ? "Watch, trim and download them" : "Open the video";
  const footer = `You get this email when a video you uploaded or imported is done. To stop it, untick it in Settings: ${settingsUrl}`;
  const line = (clip: EmailedClip) =>
    `${clip.title} (${formatLength(clip.endSeconds - clip.startSeconds)}), score ${clip.score}`;

  const text = [
    lead,
    "",
    ...(best.length > 0 ? [...best.map((clip) => `- ${line(clip)}`), ""] : []),
    `${action}:`,
    videoUrl,
    "",
    footer,
    "",
  ].join("\n");

  const safeVideoUrl = escapeHtml(videoUrl);
  const html = renderEmailHtml({
    appName,
    bodyHtml: [
      `<h1 style="${EMAIL_STYLES.heading}">${escapeHtml(subject)}</h1>`,
      `<p style="${EMAIL_STYLES.paragraph}">${escapeHtml(lead)}</p>`,
      ...(best.length > 0
        ? [
            `<ol style="margin:0 0 24px;padding-left:20px;font-size:15px;line-height:1.6;color:#0f172a;">`,
            ...best.map(
              (clip) =>
                `<li><a href="${escapeHtml(`${videoUrl}#clip-${clip.clipId}`)}" style="color:#0f172a;font-weight:600;">${escapeHtml(clip.title)}</a> <span style="color:#64748b;">${escapeHtml(formatLength(clip.endSeconds - clip.startSeconds))} · score ${clip.score}</span></li>`,
            ),
            "</ol>",
          ]
        : []),
      `<a href="${safeVideoUrl}" style="${EMAIL_STYLES.button}">${escapeHtml(action)}</a>`,
      `<p style="${EMAIL_STYLES.small}">Or paste this link into your browser:<br><a href="${safeVideoUrl}" style="${EMAIL_STYLES.link}">${safeVideoUrl}</a></p>`,
    ].join("\n"),
    footerHtml: `You get this email when a video you uploaded or imported is done. To stop it, untick it in <a href="${escapeHtml(settingsUrl)}" style="color:#94a3b8;">Settings</a>.`,
  });
  return { to: options.to, subject, text, html };
}
