import { checkHealth } from "@/server/health/check-health";
import { handleErrors, jsonResponse } from "@/server/http/respond";
import { getRuntime } from "@/server/runtime";

export const dynamic = "force-dynamic";

// GET /api/health – 200 when the table, bucket and queue answer; 503 naming what fails
export const GET = handleErrors(async () => {
  const health = await checkHealth(getRuntime());
  return jsonResponse(health, health.status === "ok" ? 200 : 503);
});
