import { NextRequest } from "next/server";
import { handlers } from "@/server/auth/auth";
import { handleAuthGet } from "@/server/auth/handle-auth-get";
import { handleAuthPost } from "@/server/auth/handle-auth-post";

export const dynamic = "force-dynamic";

/** next-auth's handlers expect a NextRequest; ours may hand on a rebuilt plain Request. */
const asNextRequest = (request: Request) =>
  request instanceof NextRequest ? request : new NextRequest(request);

// GET /api/auth/callback/email – 303 to the confirm page /login/confirm (spends nothing)
// GET /api/auth/* – Auth.js: csrf, session
export async function GET(request: NextRequest): Promise<Response> {
  return handleAuthGet(request, (forwarded) => handlers.GET(asNextRequest(forwarded)));
}

// POST /api/auth/signin/email – send a sign-in link (JSON {email, callbackUrl?}) → 202
// POST /api/auth/callback/email – the confirm page's button: same-origin only; Auth.js spends
//   the token, sets the session cookie and redirects
// POST /api/auth/* – other Auth.js actions (signout, session), CSRF-checked by Auth.js
export async function POST(request: NextRequest): Promise<Response> {
  return handleAuthPost(request, (forwarded) => handlers.POST(asNextRequest(forwarded)));
}
