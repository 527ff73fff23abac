import type { Table } from "@/db/table";

/**
 * For tests that bound a code path's DynamoDB cost, or check how it reads: counts the requests
 * the table's client sends over the wire, by operation (`GetItem`, `TransactWriteItems`…, from
 * the `X-Amz-Target` header), and keeps their JSON bodies. It observes and passes every request
 * on unchanged; nothing is stubbed. The document client shares its middleware stack with the
 * low-level client, so every command is seen, each retry included. Call `stop()` when done
 * (the client is the process-wide one).
 */
export function countTableRequests(table: Table): {
  count: (operation?: string) => number;
  /** The bodies of the requests of one operation, in the order sent. */
  bodies: (operation: string) => Record<string, unknown>[];
  reset: () => void;
  stop: () => void;
} {
  const name = `countTableRequests-${Math.random().toString(36).slice(2)}`;
  let requests: { operation: string; body: Record<string, unknown> }[] = [];
  table.documentClient.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      const target = Object.entries(request.headers ?? {}).find(
        ([header]) => header.toLowerCase() === "x-amz-target",
      );
      const body = JSON.parse(bodyText(request.body) || "{}") as Record<string, unknown>;
      requests.push({ operation: target?.[1].split(".").pop() ?? "unknown", body });
      return next(args);
    },
    { step: "finalizeRequest", name },
  );
  return {
    count: (operation) =>
      operation === undefined
        ? requests.length
        : requests.filter((sent) => sent.operation === operation).length,
    bodies: (operation) => requests.filter((sent) => sent.operation === operation).map((sent) => sent.body),
    reset: () => {
      requests = [];
    },
    stop: () => {
      table.documentClient.middlewareStack.remove(name);
    },
  };
}

/** A request's body as text: the SDK hands it over as a string or as bytes. */
function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString("utf8");
  return "";
}
