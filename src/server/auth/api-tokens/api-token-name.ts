import { z } from "zod";

/** What a creator calls a token ("CI uploads", "Laptop script"). */
export const ApiTokenName = z
  .string({ error: "Give the token a name." })
  .trim()
  .min(1, "Give the token a name.")
  .max(60, "Keep the name under 60 characters.");
