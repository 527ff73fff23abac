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
