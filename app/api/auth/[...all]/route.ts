// better-auth's own endpoints (session, sign-in/out over HTTP); the UI uses server actions.
import { toNextJsHandler } from "better-auth/next-js";
import { auth } from "@/lib/auth/auth";

export async function GET(request: Request) {
  return toNextJsHandler(auth()).GET(request);
}

export async function POST(request: Request) {
  return toNextJsHandler(auth()).POST(request);
}
