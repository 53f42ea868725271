import { NextResponse } from "next/server";
import { forgetWorkspace, resolveWorkspace } from "@/lib/auth/session";

// Reads the session on every request; never prerendered.
export const dynamic = "force-dynamic";

/**
 * Where the dashboard sends a browser whose workspace cookie names a workspace its user has left
 * (removed since, or another account's cookie): the cookie is cleared (a cookie can be changed
 * here, not while a page renders) and the user goes on in their oldest workspace. Only such a
 * cookie is cleared.
 */
export async function GET(request: Request) {
  if ((await resolveWorkspace())?.left) await forgetWorkspace();
  return NextResponse.redirect(new URL("/", request.url), 303);
}
