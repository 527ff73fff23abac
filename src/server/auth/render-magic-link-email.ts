import type { MailMessage } from "@/server/mail/mail-message";

const escapeHtml = (value: string) =>
  value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

/**
 * The sign-in email: a plain-text part that works everywhere and a small HTML part with
 * inline styles only (mail clients drop <style> blocks and external CSS).
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
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:0;background:#f8fafc;">
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f8fafc;padding:32px 16px;">
      <tr>
        <td align="center">
          <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
            <tr>
              <td style="padding:32px 32px 8px;">
                <div style="font-size:18px;font-weight:700;letter-spacing:-0.01em;">${escapeHtml(appName)}</div>
              </td>
            </tr>
            <tr>
              <td style="padding:8px 32px 0;">
                <h1 style="margin:0 0 12px;font-size:22px;line-height:1.3;">Sign in to ${escapeHtml(appName)}</h1>
                <p style="margin:0 0 24px;font-size:15px;line-height:1.6;color:#475569;">Click the button below to sign in. The link works once and expires in ${escapeHtml(lifetime)}.</p>
                <a href="${safeUrl}" style="display:inline-block;background:#3b52e6;color:#ffffff;text-decoration:none;font-weight:600;font-size:15px;padding:12px 20px;border-radius:8px;">Sign in</a>
                <p style="margin:24px 0 0;font-size:13px;line-height:1.6;color:#64748b;">Or paste this link into your browser:<br><a href="${safeUrl}" style="color:#3b52e6;word-break:break-all;">${safeUrl}</a></p>
              </td>
            </tr>
            <tr>
              <td style="padding:24px 32px 32px;">
                <p style="margin:0;font-size:12px;line-height:1.6;color:#94a3b8;">If you did not ask to sign in to ${escapeHtml(appName)} at ${escapeHtml(host)}, you can ignore this email.</p>
              </td>
            </tr>
          </table>
        </td>
      </tr>
    </table>
  </body>
</html>
`;
  return { to: options.to, subject, text, html };
}
