import { describe, expect, it } from "vitest";
import { renderMagicLinkEmail } from "./render-magic-link-email";

const url = "http://localhost:3000/login/confirm?callbackUrl=%2Fdashboard&token=abc&email=a%40b.co";

describe("renderMagicLinkEmail", () => {
  it("puts the exact link in both parts and states the lifetime", () => {
    const message = renderMagicLinkEmail({ to: "a@b.co", url, expiresInMinutes: 15 });
    expect(message.to).toBe("a@b.co");
    expect(message.subject).toBe("Your Truss sign-in link");
    expect(message.text).toContain(`\n${url}\n`);
    expect(message.text).toContain("expires in 15 minutes");
    expect(message.html).toContain(`href="${url.replaceAll("&", "&amp;")}"`);
    expect(message.html).toContain("expires in 15 minutes");
  });

  it("escapes the link so it cannot break out of the attribute", () => {
    const hostile = 'http://localhost:3000/x?"><script>alert(1)</script>';
    const message = renderMagicLinkEmail({ to: "a@b.co", url: hostile, expiresInMinutes: 1 });
    expect(message.html).not.toContain("<script>");
    expect(message.html).toContain("&quot;&gt;&lt;script&gt;");
    expect(message.text).toContain("expires in 1 minute.");
  });
});
