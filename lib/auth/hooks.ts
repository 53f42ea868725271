import "server-only";
import { randomUUID } from "node:crypto";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { z } from "zod";
import { currentPasswordSchema, emailSchema, personNameSchema } from "@/lib/validation/account-fields";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "@/lib/auth/client-address";
import { newPasswordProblem } from "@/lib/auth/password-policy";
import { accountDigest, releaseAuthAttempt, reserveAuthAttempt, type Reservation } from "@/lib/auth/rate-limit";
import { admitSignUp, currentSignUpIntent, provisionAccount } from "@/lib/auth/sign-up";
import { TooManyRequestsError, UserError } from "@/lib/errors";
import { text } from "@/lib/validation/text";

// better-auth runs these for every call of its endpoints, whether a server action calls
// `auth().api.*` or a client posts to /api/auth/*, so nothing reaches an account around them:
//  - input limits: names, emails, passwords and images are bounded and free of control
//    characters; new passwords follow the password policy (hard to guess, lib/auth/password-policy.ts);
//  - the sign-in and sign-up limiter (lib/auth/rate-limit.ts), per account and client; a browser
//    that signed in to an account gets a signed cookie naming it, and counts as its own client
//    for that account (failures elsewhere do not lock it out);
//  - who may sign up (lib/auth/sign-up.ts), decided before better-auth looks the email up, so
//    the answer does not depend on whether the address has an account;
//  - the client address better-auth records on sessions (lib/auth/client-address.ts).

const STATUS = { 400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 429: "TOO_MANY_REQUESTS" } as const;

/** A UserError as better-auth answers it: its status, `{ message, code, field? }`, Retry-After when limited. */
export function toAPIError(error: UserError): APIError {
  const headers: Record<string, string> = error instanceof TooManyRequestsError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  const body = { message: error.message, code: error.code, ...(error.field ? { field: error.field } : {}) };
  return new APIError(STATUS[error.status as keyof typeof STATUS] ?? "BAD_REQUEST", body, headers);
}

const rethrowAsAPIError = (error: unknown): never => {
  throw error instanceof UserError ? toAPIError(error) : error;
};

const imageSchema = text({ max: 2048, label: "The image URL" }).nullish();

const bodies = {
  "/sign-up/email": z.looseObject({ name: personNameSchema, email: emailSchema, password: z.unknown(), image: imageSchema }),
  "/sign-in/email": z.looseObject({ email: emailSchema, password: currentPasswordSchema }),
  "/update-user": z.looseObject({ name: personNameSchema.optional(), image: imageSchema }),
  "/change-email": z.looseObject({ newEmail: emailSchema }),
  "/change-password": z.looseObject({ currentPassword: currentPasswordSchema, newPassword: z.unknown() }),
  "/set-password": z.looseObject({ newPassword: z.unknown() }),
  "/reset-password": z.looseObject({ newPassword: z.unknown() }),
} as const;

// Which field of each body carries a new password.
const newPasswordField: Partial<Record<keyof typeof bodies, string>> = {
  "/sign-up/email": "password",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
  "/reset-password": "newPassword",
};

function parseBody(path: keyof typeof bodies, body: unknown): Record<string, unknown> {
  const parsed = bodies[path].safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") || undefined;
    throw new UserError(issue?.message ?? "Invalid request", { field });
  }
  const field = newPasswordField[path];
  // A sign-up's own name and address make a password easy to guess (other paths do not carry them).
  const personal = [parsed.data.name, parsed.data.email].filter((value): value is string => typeof value === "string");
  const problem = field ? newPasswordProblem(parsed.data[field], personal) : null;
  if (field && problem) throw new UserError(problem, { field });
  return parsed.data;
}

// The sign-in attempt a request counted, until its outcome is known (keyed by the call's own context object).
const reservations = new WeakMap<object, { reservation: Reservation; account: string; device: string | null }>();

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

// "<account digest>:<device id>", signed with the auth secret: only a browser that signed in to
// that account holds one. One account per browser (the last one signed in to).
const KNOWN_DEVICE_COOKIE = "known_device";
const KNOWN_DEVICE_MAX_AGE = 60 * 60 * 24 * 365;

/** The id of this browser when it has signed in to `account` before, else null. */
async function knownDevice(ctx: HookContext, account: string): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE);
  const value = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  const [digest, device] = typeof value === "string" ? value.split(":") : [];
  return digest === account && device ? device : null;
}

export const beforeAuthEndpoint = createAuthMiddleware(async (ctx) => {
  const address = clientAddress(ctx.headers);
  const headers = new Headers({ [CLIENT_ADDRESS_HEADER]: address ?? "" });
  const path = ctx.path as keyof typeof bodies;
  if (!(path in bodies)) return { context: { headers } };
  try {
    const body = parseBody(path, ctx.body);
    if (path === "/sign-in/email") {
      const account = accountDigest(body.email as string);
      const device = await knownDevice(ctx, account);
      const reservation = await reserveAuthAttempt("sign-in", { email: body.email as string, address, knownDevice: device });
      reservations.set(ctx.context, { reservation, account, device });
    } else if (path === "/sign-up/email") {
      await reserveAuthAttempt("sign-up", { email: body.email as string, address });
      await admitSignUp(body.email as string, currentSignUpIntent());
    }
    // Trimmed names and lower-cased emails reach better-auth.
    return { context: { headers, body: { ...(ctx.body as object), ...body } } };
  } catch (error) {
    return rethrowAsAPIError(error);
  }
});

export const afterAuthEndpoint = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== "/sign-in/email") return;
  const attempt = reservations.get(ctx.context);
  reservations.delete(ctx.context);
  const signedIn = !isAPIError(ctx.context.returned) && !!ctx.context.newSession;
  if (!attempt || !signedIn) return;
  // Only failures count: a successful sign-in is taken back and clears this client's failures.
  await releaseAuthAttempt(attempt.reservation, { clearClient: true });
  const cookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: KNOWN_DEVICE_MAX_AGE });
  await ctx.setSignedCookie(cookie.name, `${attempt.account}:${attempt.device ?? randomUUID()}`, ctx.context.secret, cookie.attributes);
});

/** better-auth's `databaseHooks.user.create.after`: the new account's workspace or membership, and the operator claim. */
export async function afterUserCreated(user: { id: string; email: string; name: string }): Promise<void> {
  await provisionAccount(user, currentSignUpIntent()).catch(rethrowAsAPIError);
}
