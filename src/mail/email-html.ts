/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (value: string) =>
  value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

/** Inline styles the emails share (mail clients drop <style> blocks and external CSS). */
export const EMAIL_STYLES = {
  heading: "margin:0 0 12px;font-size:22px;line-height:1.3;",
  paragraph: "margin:0 0 24px;font-size:15px;line-height:1.6;color:#475569;",
  button:
    "display:inline-block;background:#3b52e6;color:#ffffff;text-decoration:none;font-weight:600;font-size:15px;padding:12px 20px;border-radius:8px;",
  small: "margin:24px 0 0;font-size:13px;line-height:1.6;color:#64748b;",
  link: "color:#3b52e6;word-break:break-all;",
} as const;

/**
 * A Truss email's HTML part: the app's name on a white card, the message's own HTML below it
 * (already escaped by the caller), and a small grey footer line.
 */
export function renderEmailHtml(options: { appName: string; bodyHtml: string; footerHtml: string }): string {
  return `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:0;background:#f8fafc;">
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f8fafc;padding:32px 16px;">
      <tr>
        <td align="center">
          <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;">
            <tr>
              <td style="padding:32px 32px 8px;">
                <div style="font-size:18px;font-weight:700;letter-spacing:-0.01em;">${escapeHtml(options.appName)}</div>
              </td>
            </tr>
            <tr>
              <td style="padding:8px 32px 0;">
                ${options.bodyHtml}
              </td>
            </tr>
            <tr>
              <td style="padding:24px 32px 32px;">
                <p style="margin:0;font-size:12px;line-height:1.6;color:#94a3b8;">${options.footerHtml}</p>
              </td>
            </tr>
          </table>
        </td>
      </tr>
    </table>
  </body>
</html>
`;
}
