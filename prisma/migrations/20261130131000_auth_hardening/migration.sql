-- Sign-in and sign-up limits shared by every web replica (lib/auth/rate-limit.ts): one row per
-- counted attempt, in buckets per account and per client address. Failed sign-ins stay counted
-- for their window; a successful one is taken back. Nothing else reads this table.

-- CreateTable
CREATE TABLE "auth_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "bucket" TEXT NOT NULL,
    "attemptedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "auth_attempts_bucket_attemptedAt_idx" ON "auth_attempts"("bucket", "attemptedAt");

-- CreateIndex
CREATE INDEX "auth_attempts_attemptedAt_idx" ON "auth_attempts"("attemptedAt");
