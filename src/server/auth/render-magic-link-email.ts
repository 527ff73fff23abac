import { EMAIL_STYLES, escapeHtml, renderEmailHtml } from "@/mail/email-html";
import type { MailMessage } from "@/mail/mail-message";

/**
 * The sign-in email: a plain-text part that works everywhere and a small HTML part with
 * inline styles only.
 */
export function renderMagicLinkEmail(options: {
  to: string;
  url: string;
  expiresInMinutes: number;
  appName?: string;
}): MailMessage {
  const appName = options.appName ?? "Truss";
  const { url, expiresInMinutes } = options;
  const lifetime = expiresInMinutes === 1 ? "1 minute" : `${expiresInMinutes} minutes`;
  const host = new URL(url).host;
  const subject = `Your ${appName} sign-in link`;
  const text = [
    `Sign in to ${appName}`,
    "",
    "Open this link to sign in:",
    url,
    "",
    `The link works once and expires in ${lifetime}.`,
    `If you did not ask to sign in to ${appName} at ${host}, you can ignore this email.`,
    "",
  ].join("\n");
  const safeUrl = escapeHtml(url);
  const html = renderEmailHtml({
    appName,
    bodyHtml: [
      `<h1 style="${EMAIL_STYLES.heading}">Sign in to ${escapeHtml(appName)}</h1>`,
      `<p style="${EMAIL_STYLES.paragraph}">Click the button below to sign in. The link works once and expires in ${escapeHtml(lifetime)}.</p>`,
      `<a href="${safeUrl}" style="${EMAIL_STYLES.button}">Sign in</a>`,
      `<p style="${EMAIL_STYLES.small}">Or paste this link into your browser:<br><a href="${safeUrl}" style="${EMAIL_STYLES.link}">${safeUrl}</a></p>`,
    ].join("\n"),
    footerHtml: `If you did not ask to sign in to ${escapeHtml(appName)} at ${escapeHtml(host)}, you can ignore this email.`,
  });
  return { to: options.to, subject, text, html };
}
