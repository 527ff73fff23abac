import type { Table } from "@/db/table";

/**
 * For tests that bound a code path's DynamoDB cost: counts the requests the table's client
 * sends over the wire, by operation (`GetItem`, `TransactWriteItems`…), from the `X-Amz-Target`
 * header. It observes and passes every request on unchanged; nothing is stubbed. The document
 * client shares its middleware stack with the low-level client, so every command is seen,
 * each retry included. Call `stop()` when done (the client is the process-wide one).
 */
export function countTableRequests(table: Table): {
  count: (operation?: string) => number;
  reset: () => void;
  stop: () => void;
} {
  const name = `countTableRequests-${Math.random().toString(36).slice(2)}`;
  let operations: string[] = [];
  table.documentClient.middlewareStack.add(
    (next) => async (args) => {
      const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
      const target = Object.entries(headers).find(([header]) => header.toLowerCase() === "x-amz-target");
      operations.push(target?.[1].split(".").pop() ?? "unknown");
      return next(args);
    },
    { step: "finalizeRequest", name },
  );
  return {
    count: (operation) =>
      operation === undefined ? operations.length : operations.filter((sent) => sent === operation).length,
    reset: () => {
      operations = [];
    },
    stop: () => {
      table.documentClient.middlewareStack.remove(name);
    },
  };
}
