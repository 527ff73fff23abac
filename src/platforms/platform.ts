import type { Platform } from "@/db/repos/platform-token-repo";

/**
 * The one interface every publishing platform (YouTube, TikTok, Twitch, Discord) implements.
 * The core is what connecting an account needs; the rest are capabilities a platform may or
 * may not have (Twitch cannot receive uploads; Discord has no chat to read), so callers ask
 * `adapter.publishVideo ?` instead of switching on the platform name.
 *
 * Every host an adapter talks to comes from configuration, so tests run adapters against
 * local fakes of the documented HTTP APIs (docs: ../shared/docs/platform-apis.md).
 */
export type OAuthTokens = {
  accessToken: string;
  refreshToken: string | null;
  accessTokenExpiresAt: Date | null;
  /** TikTok and Twitch rotate refresh tokens; Google does not. */
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
};

export type PlatformAccount = { externalAccountId: string; accountName: string };

export type PublishRequest = {
  /** A readable stream of the rendered 1080×1920 MP4 and its exact size. */
  openVideo: () => Promise<{ body: ReadableStream<Uint8Array>; sizeBytes: number }>;
  title: string;
  description: string;
  hashtags: string[];
  privacy: "public" | "unlisted" | "private";
  /** Resumable protocols (YouTube, TikTok) persist their session here between attempts. */
  resumeState: Record<string, unknown> | null;
  saveResumeState: (state: Record<string, unknown>) => Promise<void>;
  signal: AbortSignal;
};

export type PublishResult = {
  externalPostId: string;
  url: string | null;
  status: "published" | "processing";
};

export type ChatMessage = { atMs: number; author: string; text: string };

export interface PlatformAdapter {
  readonly platform: Platform;
  /** Where to send the creator to grant access (state carries CSRF protection and PKCE). */
  buildAuthorizationUrl(options: { state: string; codeChallenge: string; redirectUri: string }): string;
  exchangeCode(options: { code: string; codeVerifier: string; redirectUri: string }): Promise<OAuthTokens>;
  /** On `invalid_grant` the connection is marked NEEDS_RECONNECT; that failure is never retried. */
  refreshTokens(refreshToken: string): Promise<OAuthTokens>;
  describeAccount(accessToken: string): Promise<PlatformAccount>;

  /** Upload a clip (YouTube Shorts, TikTok, Discord webhook). Absent on Twitch. */
  publishVideo?(accessToken: string, request: PublishRequest): Promise<PublishResult>;
  /** Live chat for spike detection (Twitch IRC/EventSub, YouTube live chat). */
  readChat?(options: {
    channel: string;
    accessToken: string;
    signal: AbortSignal;
  }): AsyncIterable<ChatMessage>;
}
