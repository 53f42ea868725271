-- Operators: the instance's admins (DESIGN.md "Operator"). They own the provider connections and
-- grant them to workspaces. The first account of a fresh instance becomes one; more are granted
-- with `npm run beacon -- admin grant <email>` or on the Instance page.

-- CreateTable
CREATE TABLE "instance_operators" (
    "userId" TEXT NOT NULL,
    "grantedById" TEXT,
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_operators_pkey" PRIMARY KEY ("userId")
);

-- AddForeignKey
ALTER TABLE "instance_operators" ADD CONSTRAINT "instance_operators_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data: an existing instance keeps working: the oldest account becomes its operator.
INSERT INTO "instance_operators" ("userId")
SELECT id FROM "users" ORDER BY "createdAt", id LIMIT 1;
