import type { RenderLayout } from "@/engine/types";

/** How a rendered clip frames its source, in words (the clip editor, the CLI). */
export const RENDERED_LAYOUT_WORDS: Record<RenderLayout, string> = {
  crop: "following the subject",
  fit: "the whole frame",
  facecam: "face cam on top",
  "native-vertical": "as filmed (vertical)",
};
