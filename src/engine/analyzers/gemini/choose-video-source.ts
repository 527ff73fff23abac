import type { MediaProbe } from "@/engine/types";

/**
 * How the video reaches Gemini (platform-apis.md §0.5, §5.2):
 * - by URL: Gemini fetches a public or signed https URL itself. Only for a URL it can reach
 *   (https, not a local host), a container it accepts, and a file within the fetch limit.
 * - otherwise inline: a low-resolution proxy made here, base64 in the request, when it fits.
 */

/** Inline request payload limit since 2026-01-12 (platform-apis.md §0.5), after base64. */
export const GEMINI_INLINE_REQUEST_LIMIT_BYTES = 100 * 1000 * 1000;
/** Base64 turns 3 bytes into 4; leave 1 MB for the prompt, the schema and the JSON around them. */
export const MAX_INLINE_VIDEO_BYTES = Math.floor((GEMINI_INLINE_REQUEST_LIMIT_BYTES * 3) / 4) - 1_000_000;
/**
 * Google lists the same 100 MB for files it fetches from a URL as for inline data; a bigger
 * source goes through the proxy, which a local decode can always make.
 */
export const MAX_URL_VIDEO_BYTES = 100 * 1000 * 1000;

export type VideoSourcePlan =
  | { kind: "url"; url: URL; mediaType: string }
  | { kind: "proxy"; mediaType: "video/mp4" | "audio/mp4" };

export function chooseVideoSource(options: { sourceUrl?: string; probe: MediaProbe }): VideoSourcePlan {
  const { sourceUrl, probe } = options;
  const proxy: VideoSourcePlan = { kind: "proxy", mediaType: probe.hasVideo ? "video/mp4" : "audio/mp4" };
  if (!sourceUrl) return proxy;
  const url = parseUrl(sourceUrl);
  if (url?.protocol !== "https:" || isLocalHost(url.hostname)) return proxy;
  if (probe.sizeBytes !== null && probe.sizeBytes > MAX_URL_VIDEO_BYTES) return proxy;
  const mediaType = urlMediaType(probe);
  return mediaType ? { kind: "url", url, mediaType } : proxy;
}

/**
 * The media type Gemini is told for a fetched file, from ffprobe's container name; null for
 * containers it does not take by URL (the AI SDK's Google provider passes https URLs through
 * only for these types, and would otherwise download the whole source into memory).
 */
export function urlMediaType(
  probe: Pick<MediaProbe, "formatName" | "videoCodec" | "hasVideo">,
): string | null {
  if (!probe.hasVideo) return null;
  const formats = probe.formatName.split(",");
  // ffprobe names the ISO family "mov,mp4,m4a,3gp,3g2,mj2" whether the file is .mp4 or .mov.
  if (formats.includes("mp4") || formats.includes("mov")) return "video/mp4";
  // "matroska,webm" is also any .mkv; only WebM's own codecs make it a WebM file.
  if (formats.includes("webm") && ["vp8", "vp9", "av1"].includes(probe.videoCodec ?? "")) return "video/webm";
  if (formats.includes("avi")) return "video/avi";
  if (formats.includes("flv")) return "video/x-flv";
  return null;
}

/**
 * Gemini's input for long videos must fit the context window (about 1M tokens). At
 * `MEDIA_RESOLUTION_LOW` a frame costs about 70 tokens and a second of audio 32, so one frame
 * per second fits up to about 2 h 10 min within an 800k-token budget (800 000 / 102 tokens a
 * second; the rest of the window is the prompt and the answer); longer videos are sampled more
 * sparsely. Never above 1 fps, never below 0.1.
 */
export const INPUT_TOKEN_BUDGET = 800_000;
const TOKENS_PER_FRAME_LOW = 70;
const AUDIO_TOKENS_PER_SECOND = 32;

export function chooseSampleFramesPerSecond(durationSeconds: number): number {
  if (!(durationSeconds > 0)) return 1;
  const framesAffordable =
    (INPUT_TOKEN_BUDGET - AUDIO_TOKENS_PER_SECOND * durationSeconds) / TOKENS_PER_FRAME_LOW;
  const framesPerSecond = framesAffordable / durationSeconds;
  return Math.min(1, Math.max(0.1, Math.floor(framesPerSecond * 100) / 100));
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Hosts Google's servers cannot reach: this machine and private networks. */
function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  // IPv6 literals: loopback, unique-local (fc00::/7), link-local (fe80::/10).
  if (host.includes(":")) return host === "::1" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  const octets = host.split(".").map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet))) return false;
  const [a = 0, b = 0] = octets;
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  );
}
