import type { NextRequest } from "next/server";
import { handlers } from "@/server/auth/auth";
import { handleAuthPost } from "@/server/auth/handle-auth-post";

export const dynamic = "force-dynamic";

// GET /api/auth/* – Auth.js: magic-link callback (sets the session cookie), csrf, session
export async function GET(request: NextRequest): Promise<Response> {
  return handlers.GET(request);
}

// POST /api/auth/signin/email – send a sign-in link (JSON {email, callbackUrl?}) → 202
// POST /api/auth/* – other Auth.js actions (signout, session), CSRF-checked by Auth.js
export async function POST(request: NextRequest): Promise<Response> {
  return handleAuthPost(request, (forwarded) => handlers.POST(forwarded as NextRequest));
}
