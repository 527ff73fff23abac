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
      const { operation, bodyText } = readTableRequest(args.request);
      requests.push({ operation, body: JSON.parse(bodyText || "{}") as Record<string, unknown> });
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

/**
 * A DynamoDB request as the table client's middleware sees it at `finalizeRequest`: its operation
 * (`GetItem`, `TransactWriteItems`…, from the `X-Amz-Target` header) and its JSON body as text
 * (the SDK hands the body over as a string or as bytes).
 */
export function readTableRequest(request: unknown): { operation: string; bodyText: string } {
  const { headers = {}, body } = request as { headers?: Record<string, string>; body?: unknown };
  const target = Object.entries(headers).find(([header]) => header.toLowerCase() === "x-amz-target");
  const bodyText =
    typeof body === "string" ? body : body instanceof Uint8Array ? Buffer.from(body).toString("utf8") : "";
  return { operation: target?.[1].split(".").pop() ?? "unknown", bodyText };
}
