import { z } from "zod";

/**
 * Emails are compared and stored in one form: Unicode NFKC (so look-alike characters such as
 * a full-width `＠` cannot smuggle a second address), trimmed, lower-cased. Lower-casing the
 * local part is technically lossy, but every mainstream provider treats it case-insensitively,
 * and one account per spelling would be worse.
 */
export function normalizeEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

/** Providers that ignore dots in the local part, and the domain their addresses all reach. */
const DOTLESS_DOMAINS: Record<string, string> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * The inbox a normalized address reaches, for limiting how much mail one inbox gets: a `+tag`
 * (sub-addressing, which every large provider delivers to the same inbox) is dropped, and so
 * are Gmail's dots. Only a rate limit's key: the address is stored and mailed as it was given,
 * since a provider may treat these as distinct and they may be distinct accounts here.
 */
export function inboxOf(normalizedEmail: string): string {
  const at = normalizedEmail.lastIndexOf("@");
  if (at <= 0) return normalizedEmail;
  const domain = normalizedEmail.slice(at + 1);
  let local = normalizedEmail.slice(0, at);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless ? `${local.replaceAll(".", "")}@${dotless}` : `${local}@${domain}`;
}

const MAX_EMAIL_LENGTH = 254;

/** A submitted email address: normalized, then validated. */
export const EmailAddress = z
  .string({ error: "Enter your email address." })
  .max(MAX_EMAIL_LENGTH + 64, "That email address is too long.")
  .transform(normalizeEmail)
  .pipe(
    z
      .email({ error: "Enter a valid email address, like you@example.com." })
      .max(MAX_EMAIL_LENGTH, "That email address is too long."),
  );
