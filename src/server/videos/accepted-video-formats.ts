import { AppError } from "@/server/errors";

/**
 * The containers Truss accepts: MP4, MOV, WebM, MKV, MPEG-TS (stream captures, camcorders'
 * .mts/.m2ts) and FLV. A file is checked three times: its declared content type and its
 * extension when the upload is created (both must name the same family), and the container
 * ffprobe finds once it is stored.
 */
export type VideoFormat = {
  label: "MP4" | "MOV" | "WebM" | "MKV" | "MPEG-TS" | "FLV";
  extensions: readonly string[];
  /** The first is the canonical type we sign uploads with. */
  contentTypes: readonly string[];
  /** ffprobe's `format_name` for this container (a demuxer serves several containers). */
  probeFormat: "mov,mp4,m4a,3gp,3g2,mj2" | "matroska,webm" | "mpegts" | "flv";
};

export const ACCEPTED_VIDEO_FORMATS: readonly VideoFormat[] = [
  {
    label: "MP4",
    extensions: ["mp4", "m4v"],
    contentTypes: ["video/mp4"],
    probeFormat: "mov,mp4,m4a,3gp,3g2,mj2",
  },
  {
    label: "MOV",
    extensions: ["mov", "qt"],
    contentTypes: ["video/quicktime"],
    probeFormat: "mov,mp4,m4a,3gp,3g2,mj2",
  },
  { label: "WebM", extensions: ["webm"], contentTypes: ["video/webm"], probeFormat: "matroska,webm" },
  {
    label: "MKV",
    extensions: ["mkv"],
    contentTypes: ["video/x-matroska", "video/matroska"],
    probeFormat: "matroska,webm",
  },
  {
    // What streamlink and stream recorders save, and AVCHD camcorders record. The worker copies
    // it into Matroska before cutting (src/media/seekable-copy.ts).
    label: "MPEG-TS",
    extensions: ["ts", "mts", "m2ts"],
    // Windows names the type after DLNA.
    contentTypes: ["video/mp2t", "video/vnd.dlna.mpeg-tts"],
    probeFormat: "mpegts",
  },
  { label: "FLV", extensions: ["flv"], contentTypes: ["video/x-flv"], probeFormat: "flv" },
];

/** The accepted formats in a sentence: "MP4, MOV, WebM, MKV, MPEG-TS and FLV". */
export function listAcceptedFormats(conjunction: "and" | "or"): string {
  const labels = ACCEPTED_VIDEO_FORMATS.map((format) => format.label);
  return `${labels.slice(0, -1).join(", ")} ${conjunction} ${labels.at(-1)}`;
}

export const ACCEPTED_FORMATS_TEXT = listAcceptedFormats("and");

/** `video/WebM; codecs=vp9` → `video/webm`. */
export function normalizeContentType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : "";
}

/** The format a content type names (`video/WebM; codecs=vp9` included), if we take it. */
export function formatForContentType(contentType: string): VideoFormat | undefined {
  const normalized = normalizeContentType(contentType);
  return ACCEPTED_VIDEO_FORMATS.find((format) => format.contentTypes.includes(normalized));
}

/** The format a browser should declare for a file whose own type is empty (common for .mkv). */
export function formatForExtension(extension: string): VideoFormat | undefined {
  return ACCEPTED_VIDEO_FORMATS.find((format) => format.extensions.includes(extension.toLowerCase()));
}

/**
 * Checks a declared file before any upload URL is signed. Returns the canonical content type
 * to sign with; throws 415 when the type or the extension is not a video we take, or when they
 * disagree (a `.mp4` declared as `video/webm`).
 */
export function checkDeclaredVideoFile(options: { filename: string; contentType: string }): {
  format: VideoFormat;
  contentType: string;
} {
  const contentType = normalizeContentType(options.contentType);
  const extension = extensionOf(options.filename);
  const byType = formatForContentType(contentType);
  const byExtension = formatForExtension(extension);
  if (!byType) {
    throw new AppError(
      "unsupported_media_type",
      `Files of type "${contentType || "unknown"}" are not accepted. Upload ${ACCEPTED_FORMATS_TEXT} video.`,
    );
  }
  if (!byExtension) {
    throw new AppError(
      "unsupported_media_type",
      `"${extension ? `.${extension}` : "no extension"}" is not a video file name we accept. Upload ${ACCEPTED_FORMATS_TEXT} video.`,
    );
  }
  // MP4 and MOV share a container family, as do WebM and MKV; a file named for one and typed as
  // the other is common and harmless. Across families it is a mislabelled file.
  if (byType.probeFormat !== byExtension.probeFormat) {
    throw new AppError(
      "unsupported_media_type",
      `The file is named as ${byExtension.label} but declared as ${byType.label}. Check the file and try again.`,
    );
  }
  return { format: byType, contentType: byType.contentTypes[0] ?? contentType };
}

/** After upload: is the container ffprobe found one we accept? */
export function isAcceptedProbeFormat(formatName: string): boolean {
  return ACCEPTED_VIDEO_FORMATS.some((format) => format.probeFormat === formatName);
}

/** How long a stored display name may be, in characters (its extension kept). */
const MAX_DISPLAY_FILENAME_LENGTH = 200;

/**
 * A display name from what a browser sent (`C:\fakepath\clip.mp4` → `clip.mp4`), trimmed. A
 * long name is shortened before its extension, which the type check and the download read.
 */
export function displayFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  // Control characters would only garble logs and the page; bidirectional overrides and
  // isolates would show the name in another order than it has (`clip\u202Ekcod.exe`).
  const clean = base
    .toWellFormed()
    .replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu, "")
    .trim();
  const characters = [...clean];
  if (characters.length <= MAX_DISPLAY_FILENAME_LENGTH) return clean || "video";
  const dot = clean.lastIndexOf(".");
  const extension = dot > 0 && clean.length - dot <= 10 ? [...clean.slice(dot)] : [];
  const stem = characters.slice(0, characters.length - extension.length);
  return [...stem.slice(0, MAX_DISPLAY_FILENAME_LENGTH - extension.length), ...extension].join("").trim();
}
