import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/validation/account-fields";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { afterAuthEndpoint, afterUserCreated, beforeAuthEndpoint } from "@/lib/auth/hooks";
import { passwordHashing } from "@/lib/auth/password-hash";
import { env, publicUrl } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";

// Identity (users, sessions, password hashing) is better-auth's; tenancy (workspaces, roles,
// invitations) is ours in lib/workspaces, because every domain query is scoped by our
// `workspaceId` and roles include `viewer`.
function createAuth() {
  return betterAuth({
    database: prismaAdapter(db(), { provider: "postgresql" }),
    secret: env().BEACON_AUTH_SECRET,
    baseURL: publicUrl(),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      // Sign-up never signs in: with this off, better-auth answers a sign-up for an address that
      // already has an account exactly like one for a new address (a password hash, no cookie),
      // so sign-up tells nobody which addresses have accounts. The form signs in next, through
      // the limiter.
      autoSignIn: false,
      password: passwordHashing(env().BEACON_TEST_CHEAP_PASSWORD_HASH),
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    // Ours (lib/auth/hooks.ts) limits sign-in and sign-up on every path, in PostgreSQL; better-auth's
    // own is per process, only sees HTTP calls and would believe any X-Forwarded-For.
    rateLimit: { enabled: false },
    hooks: { before: beforeAuthEndpoint, after: afterAuthEndpoint },
    databaseHooks: { user: { create: { after: afterUserCreated } } },
    // Sessions record the address lib/auth/client-address.ts resolved, never a client's own header.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { beaconAuth?: Auth };

export function auth(): Auth {
  globalForAuth.beaconAuth ??= createAuth();
  return globalForAuth.beaconAuth;
}
