import { z } from "zod";

/**
 * A whole number as a URL carries it: decimal digits only. `z.coerce.number()` also read
 * " " as 0, "0x32" as 50 and "1e1" as 10, so a malformed link quietly meant something else.
 */
export function wholeNumberParam(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, "Expected a whole number written in digits")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** The clips lists' "score ≥ N" filter: scores run 0–100. */
export const MinScoreParam = wholeNumberParam(0, 100);
