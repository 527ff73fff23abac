import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { isPublicAddress } from "./public-address";

/**
 * Opens an http(s) URL for import without letting it reach private networks (SSRF):
 * - the host name is resolved here, and EVERY address it resolves to must be public;
 * - the connection goes to the very address that was checked (the socket's DNS lookup is
 *   pinned), so a second, different DNS answer cannot slip in (DNS rebinding);
 * - redirects are followed by hand, each hop checked the same way, at most `maxRedirects`;
 * - only http and https, no credentials in the URL.
 * `allowPrivateAddresses` (configuration, for tests and private deployments) lifts the address
 * check only; `trustedAddresses` exempts exact addresses (an internal media server) and keeps
 * the check for everything else.
 */
export type UrlImportFailure =
  | "invalid-url"
  | "refused-address"
  | "unresolvable"
  | "too-many-redirects"
  | "http-status"
  | "network"
  | "timeout";

export class UrlImportError extends Error {
  constructor(
    readonly kind: UrlImportFailure,
    message: string,
    readonly options: { status?: number; permanent: boolean; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = "UrlImportError";
  }
}

/** Why an address is refused, the same for every refused host (see resolvePublicAddresses). */
const REFUSED_ADDRESS_MESSAGE =
  "This URL does not lead to a public internet address; only public addresses can be imported.";

export type ResolvedAddress = { address: string; family: 4 | 6 };

export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

/** Longer than any media link a creator pastes; a bound on what is stored with the video. */
export const MAX_IMPORT_URL_LENGTH = 2048;

/** Parses and checks the shape of an import URL (no network). */
export function parseImportUrl(value: string): URL {
  if (value.length > MAX_IMPORT_URL_LENGTH)
    throw new UrlImportError(
      "invalid-url",
      `This URL is too long: at most ${MAX_IMPORT_URL_LENGTH.toLocaleString("en-US")} characters.`,
      { permanent: true },
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UrlImportError("invalid-url", "This is not a valid URL.", { permanent: true });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UrlImportError("invalid-url", "Only http and https URLs can be imported.", { permanent: true });
  if (url.username || url.password)
    throw new UrlImportError("invalid-url", "URLs with a user name or password cannot be imported.", {
      permanent: true,
    });
  return url;
}

/**
 * Resolves a URL's host and checks every address; returns them all, in the resolver's order,
 * to connect to (the first that answers is used, as a browser would).
 */
export async function resolvePublicAddresses(
  url: URL,
  options: { allowPrivateAddresses: boolean; trustedAddresses?: readonly string[]; resolve?: HostResolver },
): Promise<ResolvedAddress[]> {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(hostname);
    } catch (error) {
      throw new UrlImportError("unresolvable", `The host ${hostname} could not be found.`, {
        permanent: false,
        cause: error,
      });
    }
    if (addresses.length === 0)
      throw new UrlImportError("unresolvable", `The host ${hostname} could not be found.`, {
        permanent: false,
      });
  }
  if (!options.allowPrivateAddresses) {
    const trusted = new Set(options.trustedAddresses ?? []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address) && !trusted.has(entry.address));
    if (refused) {
      // One sentence whatever the address: naming it, or what kind it is, would let anyone
      // signed in map our internal DNS (which names exist and where they point).
      throw new UrlImportError("refused-address", REFUSED_ADDRESS_MESSAGE, { permanent: true });
    }
  }
  if (addresses.length === 0)
    throw new UrlImportError("unresolvable", `The host ${hostname} could not be found.`, {
      permanent: false,
    });
  return addresses;
}

export type OpenedUrl = {
  /** The body. Reading it fails with a `UrlImportError` when the server stalls or the connection breaks. */
  response: IncomingMessage;
  finalUrl: URL;
  contentLength: number | null;
  contentType: string | null;
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A server that sends nothing for this long has stalled: better to say so than to wait for a job limit. */
export const IDLE_TIMEOUT_MS = 60 * 1000;

export async function openPublicUrl(options: {
  url: string;
  allowPrivateAddresses: boolean;
  signal?: AbortSignal;
  maxRedirects?: number;
  /** A connection that sends nothing for this long is dropped, while opening or mid-body. */
  idleTimeoutMs?: number;
  trustedAddresses?: readonly string[];
  resolve?: HostResolver;
}): Promise<OpenedUrl> {
  const maxRedirects = options.maxRedirects ?? 5;
  let url = parseImportUrl(options.url);
  for (let hop = 0; ; hop++) {
    const targets = await resolvePublicAddresses(url, options);
    const response = await request(url, targets, options.signal, options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
    const status = response.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status)) {
      response.destroy();
      const location = response.headers.location;
      if (!location)
        throw new UrlImportError("http-status", `The URL redirected (${status}) without saying where to.`, {
          status,
          permanent: true,
        });
      if (hop >= maxRedirects)
        throw new UrlImportError(
          "too-many-redirects",
          `The URL redirected more than ${maxRedirects} times.`,
          {
            permanent: true,
          },
        );
      url = parseImportUrl(new URL(location, url).toString());
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new UrlImportError(
        "http-status",
        `The URL answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""}.`,
        // The server may recover from a 5xx or 429; a 4xx will not change on retry.
        { status, permanent: status >= 400 && status < 500 && status !== 408 && status !== 429 },
      );
    }
    const length = Number(response.headers["content-length"]);
    return {
      response,
      finalUrl: url,
      contentLength: Number.isSafeInteger(length) && length >= 0 ? length : null,
      contentType: response.headers["content-type"] ?? null,
    };
  }
}

/** Plain words for the network failures people meet; the error's own message follows in brackets. */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: "the server refused the connection",
  ECONNRESET: "the server closed the connection",
  ETIMEDOUT: "the server did not answer",
  EHOSTUNREACH: "the server cannot be reached",
  ENETUNREACH: "the network cannot be reached",
};

/**
 * One request to the checked address. A failure before the response rejects; after it, it fails
 * the response, so whoever reads the body meets a `UrlImportError` too (a stall, a connection that
 * breaks off) instead of Node's bare "aborted". A cancelled `signal` fails either with its AbortError.
 */
function request(
  url: URL,
  targets: ResolvedAddress[],
  signal: AbortSignal | undefined,
  idleTimeoutMs: number,
) {
  // Every lookup the socket makes answers with the addresses we checked: all of them when
  // Node tries one after another (a dual-stack host, a dead address), else the first.
  type LookupCallback = (error: Error | null, address: unknown, family?: number) => void;
  const pinnedLookup = ((_hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
    const [first] = targets;
    if (lookupOptions?.all) callback(null, targets);
    else callback(null, first?.address, first?.family);
  }) as unknown as LookupFunction;
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const fail = (error: Error) => (response ? response.destroy(error) : reject(error));
    const networkError = (reason: string, cause?: unknown) =>
      new UrlImportError(
        "network",
        `${response ? "The connection broke off mid-download" : "The URL could not be reached"}: ${reason}.`,
        { permanent: false, cause },
      );
    const outgoing = transport.request(
      url,
      {
        method: "GET",
        lookup: pinnedLookup,
        agent: false,
        signal,
        headers: { "user-agent": "Truss-Import/1.0", accept: "video/*, */*;q=0.5" },
      },
      (incoming) => {
        response = incoming;
        resolve(incoming);
      },
    );
    // Nothing for `idleTimeoutMs` on the socket: while connecting, before the headers or mid-body.
    // Watched on the socket itself: the request passes on only the socket's first timeout.
    const onIdle = (socket: Socket) => {
      // Data waiting unread: the reader is behind (the worker uploading a part, say) and has
      // paused the socket. That quiet is ours; look again one period later.
      if (response && response.readableLength > 0) {
        socket.setTimeout(idleTimeoutMs);
        return;
      }
      const message = `The server sent nothing for ${Math.round(idleTimeoutMs / 100) / 10} s.`;
      (response ?? outgoing).destroy(new UrlImportError("timeout", message, { permanent: false }));
    };
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error instanceof UrlImportError || signal?.aborted) return fail(error);
      const words = error.code ? NETWORK_FAILURES[error.code] : undefined;
      const detail = error.message || error.code || error.name;
      fail(networkError(words ? `${words} (${detail})` : detail, error));
    });
    outgoing.once("socket", (socket) => {
      socket.setTimeout(idleTimeoutMs);
      socket.on("timeout", () => onIdle(socket));
      // Ahead of Node's own listener, which would fail an unfinished body with a bare "aborted".
      socket.prependListener("close", () => {
        if (response && !response.complete && !signal?.aborted)
          fail(networkError("the server closed it before the whole file arrived"));
      });
    });
    outgoing.end();
  });
}
