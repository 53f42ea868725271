-- API keys belong to a member and carry a scope (issue 9). A key acts with the lower of its
-- scope's role (read -> viewer, write -> member, admin -> admin) and its member's current role,
-- and stops working when its member leaves the workspace.

-- CreateEnum
CREATE TYPE "ApiKeyScope" AS ENUM ('read', 'write', 'admin');

-- AlterTable: existing keys acted as admin and keep doing so (capped by their member's role from
-- now on); keys created from here on default to write, like the CLI's.
ALTER TABLE "api_keys" ADD COLUMN "scope" "ApiKeyScope" NOT NULL DEFAULT 'admin';
ALTER TABLE "api_keys" ALTER COLUMN "scope" SET DEFAULT 'write';

-- Data: keys the CLI created had no creator; like the CLI's keys now, they belong to the
-- workspace's first owner (oldest owner membership), so the scripts using them keep working.
UPDATE "api_keys" k
   SET "createdById" = (
         SELECT m."userId" FROM "memberships" m
          WHERE m."workspaceId" = k."workspaceId" AND m."role" = 'owner'
          ORDER BY m."createdAt", m."id" LIMIT 1)
 WHERE k."createdById" IS NULL;

-- Data: a key whose creator is no longer a member of its workspace is revoked.
UPDATE "api_keys" k
   SET "revokedAt" = CURRENT_TIMESTAMP
 WHERE k."revokedAt" IS NULL
   AND NOT EXISTS (
         SELECT 1 FROM "memberships" m
          WHERE m."workspaceId" = k."workspaceId" AND m."userId" = k."createdById");
