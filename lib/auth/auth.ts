import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
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
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    rateLimit: { enabled: env().NODE_ENV === "production" },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { beaconAuth?: Auth };

export function auth(): Auth {
  globalForAuth.beaconAuth ??= createAuth();
  return globalForAuth.beaconAuth;
}
