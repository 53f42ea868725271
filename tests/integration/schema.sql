CREATE TYPE "AlertChannelKind" AS ENUM ('email', 'slack', 'webhook');

CREATE TYPE "AlertDeliveryKind" AS ENUM ('firing', 'test', 'digest');

CREATE TYPE "AlertDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed', 'sending', 'unknown');

CREATE TYPE "AnalysisRunStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

CREATE TYPE "ApiKeyScope" AS ENUM ('read', 'write', 'admin');

CREATE TYPE "AttemptOutcome" AS ENUM ('succeeded', 'failed', 'unknown', 'cancelled');

CREATE TYPE "BreakerStatus" AS ENUM ('closed', 'open', 'half_open');

CREATE TYPE "CaptureStatus" AS ENUM ('queued', 'running', 'retry_wait', 'postponed', 'succeeded', 'failed', 'cancelled');

CREATE TYPE "CaptureWait" AS ENUM ('breaker', 'budget', 'slot');

CREATE TYPE "CheckOperationKind" AS ENUM ('cancel', 'retry');

CREATE TYPE "CheckOperationStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

CREATE TYPE "CheckStatus" AS ENUM ('queued', 'running', 'completed', 'completed_with_errors', 'failed', 'cancelled');

CREATE TYPE "EntityKind" AS ENUM ('brand', 'competitor');

CREATE TYPE "ErrorClass" AS ENUM ('permanent', 'transient', 'unknown', 'breaker_open');

CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'member', 'viewer');

CREATE TYPE "ScheduleCadence" AS ENUM ('daily', 'weekly');

CREATE TYPE "SearchMode" AS ENUM ('on', 'off', 'auto');

CREATE TYPE "Sentiment" AS ENUM ('positive', 'neutral', 'negative');

CREATE TYPE "SetupSuggestionStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed');

CREATE TYPE "SourceCategory" AS ENUM ('review', 'forum', 'news', 'reference', 'social', 'docs', 'other');

CREATE TYPE "TrafficImportState" AS ENUM ('running', 'interrupted', 'done');

CREATE TABLE "_prisma_migrations" (
  id character varying(36) NOT NULL,
  checksum character varying(64) NOT NULL,
  finished_at timestamp with time zone,
  migration_name character varying(255) NOT NULL,
  logs text,
  rolled_back_at timestamp with time zone,
  started_at timestamp with time zone NOT NULL DEFAULT now(),
  applied_steps_count integer NOT NULL DEFAULT 0,
  CONSTRAINT _prisma_migrations_pkey PRIMARY KEY (id)
);

CREATE TABLE "accounts" (
  id text NOT NULL,
  "accountId" text NOT NULL,
  "providerId" text NOT NULL,
  "userId" text NOT NULL,
  "accessToken" text,
  "refreshToken" text,
  "idToken" text,
  "accessTokenExpiresAt" timestamp(3) without time zone,
  "refreshTokenExpiresAt" timestamp(3) without time zone,
  scope text,
  password text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT accounts_pkey PRIMARY KEY (id),
  CONSTRAINT "accounts_userId_fkey" FOREIGN KEY ("userId") REFERENCES users(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "alert_channels" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  kind "AlertChannelKind" NOT NULL,
  name text NOT NULL,
  config jsonb NOT NULL,
  secret text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT alert_channels_pkey PRIMARY KEY (id),
  CONSTRAINT "alert_channels_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "alert_deliveries" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "channelId" uuid NOT NULL,
  "firingId" uuid,
  kind "AlertDeliveryKind" NOT NULL,
  message jsonb NOT NULL,
  status "AlertDeliveryStatus" NOT NULL DEFAULT 'pending'::"AlertDeliveryStatus",
  attempts integer NOT NULL DEFAULT 0,
  "lastError" text,
  "responseStatus" integer,
  "nextAttemptAt" timestamp(3) without time zone,
  "deliveredAt" timestamp(3) without time zone,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "sendToken" uuid,
  "endedAt" timestamp(3) without time zone,
  CONSTRAINT "alert_deliveries_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES alert_channels(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "alert_deliveries_firingId_fkey" FOREIGN KEY ("firingId") REFERENCES alert_firings(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT alert_deliveries_pkey PRIMARY KEY (id),
  CONSTRAINT "alert_deliveries_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "alert_firings" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "ruleId" uuid NOT NULL,
  "dedupeKey" text NOT NULL,
  title text NOT NULL,
  summary text NOT NULL,
  facts jsonb NOT NULL,
  "firedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT alert_firings_pkey PRIMARY KEY (id),
  CONSTRAINT "alert_firings_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES alert_rules(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "alert_firings_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "alert_rule_channels" (
  "ruleId" uuid NOT NULL,
  "channelId" uuid NOT NULL,
  CONSTRAINT "alert_rule_channels_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES alert_channels(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT alert_rule_channels_pkey PRIMARY KEY ("ruleId", "channelId"),
  CONSTRAINT "alert_rule_channels_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES alert_rules(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "alert_rules" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "brandId" uuid,
  name text NOT NULL,
  kind text NOT NULL,
  params jsonb NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  "createdById" text,
  "lastEvaluatedAt" timestamp(3) without time zone,
  "lastResult" jsonb,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "createKey" uuid,
  "editVersion" integer NOT NULL DEFAULT 0,
  CONSTRAINT "alert_rules_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT alert_rules_pkey PRIMARY KEY (id),
  CONSTRAINT "alert_rules_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "analysis_runs" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  status "AnalysisRunStatus" NOT NULL DEFAULT 'queued'::"AnalysisRunStatus",
  total integer NOT NULL DEFAULT 0,
  done integer NOT NULL DEFAULT 0,
  error text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "startedAt" timestamp(3) without time zone,
  "finishedAt" timestamp(3) without time zone,
  CONSTRAINT "analysis_runs_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT analysis_runs_pkey PRIMARY KEY (id),
  CONSTRAINT "analysis_runs_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "api_keys" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  name text NOT NULL,
  prefix text NOT NULL,
  "keyHash" text NOT NULL,
  "createdById" text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lastUsedAt" timestamp(3) without time zone,
  "revokedAt" timestamp(3) without time zone,
  scope "ApiKeyScope" NOT NULL DEFAULT 'write'::"ApiKeyScope",
  CONSTRAINT api_keys_pkey PRIMARY KEY (id),
  CONSTRAINT "api_keys_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "attempts" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "captureId" uuid NOT NULL,
  number integer NOT NULL,
  "runToken" uuid NOT NULL,
  "workerId" text NOT NULL,
  "startedAt" timestamp(6) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "endedAt" timestamp(3) without time zone,
  outcome "AttemptOutcome",
  reason text,
  "errorClass" "ErrorClass",
  "httpStatus" integer,
  "providerRequestId" text,
  "inputTokens" integer NOT NULL DEFAULT 0,
  "outputTokens" integer NOT NULL DEFAULT 0,
  "reasoningTokens" integer NOT NULL DEFAULT 0,
  "cachedTokens" integer NOT NULL DEFAULT 0,
  "searchCalls" integer NOT NULL DEFAULT 0,
  "costMicros" bigint NOT NULL DEFAULT 0,
  "costIsEstimate" boolean NOT NULL DEFAULT false,
  "latencyMs" integer,
  "reservedMicros" bigint NOT NULL DEFAULT 0,
  "budgetPeriod" date,
  "costOverrunMicros" bigint NOT NULL DEFAULT 0,
  "breakerCounted" boolean NOT NULL DEFAULT false,
  CONSTRAINT "attempts_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT attempts_metrics_closed TRIGGER DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT attempts_metrics_deleted TRIGGER DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT attempts_metrics_started TRIGGER DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT attempts_pkey PRIMARY KEY (id),
  CONSTRAINT "attempts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "auth_attempts" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  bucket text NOT NULL,
  "attemptedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT auth_attempts_pkey PRIMARY KEY (id)
);

CREATE TABLE "beacon_sql_objects" (
  name text NOT NULL,
  checksum character varying(64) NOT NULL,
  applied_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT beacon_sql_objects_pkey PRIMARY KEY (name)
);

CREATE TABLE "brands" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  name text NOT NULL,
  aliases text[] NOT NULL DEFAULT ARRAY[]::text[],
  domains text[] NOT NULL DEFAULT ARRAY[]::text[],
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "caseSensitiveAliases" text[] NOT NULL DEFAULT ARRAY[]::text[],
  "analysisVersion" integer NOT NULL DEFAULT 1,
  CONSTRAINT brands_pkey PRIMARY KEY (id),
  CONSTRAINT "brands_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "breaker_states" (
  "connectionId" uuid NOT NULL,
  model text NOT NULL,
  status "BreakerStatus" NOT NULL DEFAULT 'closed'::"BreakerStatus",
  "recentFailures" boolean[] NOT NULL DEFAULT ARRAY[]::boolean[],
  "openedAt" timestamp(3) without time zone,
  "openUntil" timestamp(3) without time zone,
  "probeToken" uuid,
  "probeStartedAt" timestamp(3) without time zone,
  "forcedStatus" "BreakerStatus",
  "shortCircuitCount" bigint NOT NULL DEFAULT 0,
  "successCount" bigint NOT NULL DEFAULT 0,
  "failureCount" bigint NOT NULL DEFAULT 0,
  "slowCallCount" bigint NOT NULL DEFAULT 0,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "probeUntil" timestamp(3) without time zone,
  CONSTRAINT "breaker_states_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT breaker_states_pkey PRIMARY KEY ("connectionId", model)
);

CREATE TABLE "budget_periods" (
  "workspaceId" uuid NOT NULL,
  "periodStart" date NOT NULL,
  "reservedMicros" bigint NOT NULL DEFAULT 0,
  "chargedMicros" bigint NOT NULL DEFAULT 0,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "inFlightMicros" bigint NOT NULL DEFAULT 0,
  shard smallint NOT NULL DEFAULT 0,
  CONSTRAINT budget_periods_pkey PRIMARY KEY ("workspaceId", "periodStart", shard),
  CONSTRAINT "budget_periods_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "capture_candidates" (
  "captureId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  "finishedAt" timestamp(3) without time zone NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  CONSTRAINT "capture_candidates_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT capture_candidates_pkey PRIMARY KEY ("captureId", key)
);

CREATE TABLE "captures" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "checkId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  "providerConfigId" uuid NOT NULL,
  sample integer NOT NULL,
  status "CaptureStatus" NOT NULL DEFAULT 'queued'::"CaptureStatus",
  "attemptCount" integer NOT NULL DEFAULT 0,
  "maxAttempts" integer NOT NULL,
  "runToken" uuid,
  model text NOT NULL,
  "searchMode" "SearchMode" NOT NULL,
  "answerText" text,
  "answerIsPartial" boolean NOT NULL DEFAULT false,
  "answerUpdatedAt" timestamp(3) without time zone,
  "lastError" text,
  "lastErrorClass" "ErrorClass",
  "nextAttemptAt" timestamp(3) without time zone,
  "cancelRequestedAt" timestamp(3) without time zone,
  "cancelledById" text,
  "costMicros" bigint NOT NULL DEFAULT 0,
  "latencyMs" integer,
  "startedAt" timestamp(3) without time zone,
  "finishedAt" timestamp(3) without time zone,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "analyzedAt" timestamp(3) without time zone,
  "reservedMicros" bigint NOT NULL DEFAULT 0,
  "reservedPeriod" date,
  "waitingFor" "CaptureWait",
  "analysisTruncated" boolean NOT NULL DEFAULT false,
  "connectionId" uuid NOT NULL,
  "changedXid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
  "analysisVersion" integer,
  "spentAttempts" integer NOT NULL DEFAULT 0,
  "unknownAttempts" integer NOT NULL DEFAULT 0,
  "paidAnswerLost" boolean NOT NULL DEFAULT false,
  "promptVersionId" uuid NOT NULL,
  CONSTRAINT "captures_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "captures_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES checks(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "captures_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT captures_metrics_deleted TRIGGER DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT captures_metrics_moved TRIGGER DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT captures_pkey PRIMARY KEY (id),
  CONSTRAINT "captures_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "captures_promptVersionId_fkey" FOREIGN KEY ("promptVersionId") REFERENCES prompt_versions(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "captures_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "captures_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "check_operations" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "checkId" uuid NOT NULL,
  kind "CheckOperationKind" NOT NULL,
  status "CheckOperationStatus" NOT NULL DEFAULT 'queued'::"CheckOperationStatus",
  "requestedById" text,
  result jsonb,
  error text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "startedAt" timestamp(3) without time zone,
  "finishedAt" timestamp(3) without time zone,
  "requestedByApiKeyId" uuid,
  CONSTRAINT "check_operations_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES checks(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT check_operations_pkey PRIMARY KEY (id),
  CONSTRAINT "check_operations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "checks" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  "startedById" text,
  "apiKeyId" uuid,
  "idempotencyKey" text,
  "requestHash" text,
  "idempotencyExpiresAt" timestamp(3) without time zone,
  status "CheckStatus" NOT NULL DEFAULT 'queued'::"CheckStatus",
  samples integer NOT NULL DEFAULT 1,
  "totalCaptures" integer NOT NULL,
  "chargedMicros" bigint NOT NULL DEFAULT 0,
  "cancelRequestedAt" timestamp(3) without time zone,
  "cancelledById" text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finishedAt" timestamp(3) without time zone,
  "scheduleId" uuid,
  "isDemo" boolean NOT NULL DEFAULT false,
  "retiredAttemptMicros" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "checks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT checks_pkey PRIMARY KEY (id),
  CONSTRAINT "checks_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES schedules(id) ON UPDATE CASCADE ON DELETE SET NULL,
  CONSTRAINT "checks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "citations" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "captureId" uuid NOT NULL,
  url text NOT NULL,
  title text,
  domain text NOT NULL,
  "isOwnDomain" boolean NOT NULL DEFAULT false,
  "citedInText" boolean NOT NULL DEFAULT true,
  "position" integer NOT NULL,
  CONSTRAINT "citations_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT citations_pkey PRIMARY KEY (id),
  CONSTRAINT "citations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "competitors" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  name text NOT NULL,
  aliases text[] NOT NULL DEFAULT ARRAY[]::text[],
  domains text[] NOT NULL DEFAULT ARRAY[]::text[],
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "caseSensitiveAliases" text[] NOT NULL DEFAULT ARRAY[]::text[],
  CONSTRAINT "competitors_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT competitors_pkey PRIMARY KEY (id),
  CONSTRAINT "competitors_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "connection_grants" (
  "connectionId" uuid NOT NULL,
  "workspaceId" uuid NOT NULL,
  "monthlySpendLimitMicros" bigint,
  "grantedById" text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "connection_grants_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT connection_grants_pkey PRIMARY KEY ("connectionId", "workspaceId"),
  CONSTRAINT "connection_grants_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "connection_slots" (
  "connectionId" uuid NOT NULL,
  slot integer NOT NULL,
  "captureId" uuid,
  "workspaceId" uuid,
  "takenAt" timestamp(3) without time zone,
  CONSTRAINT "connection_slots_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE SET NULL,
  CONSTRAINT "connection_slots_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT connection_slots_pkey PRIMARY KEY ("connectionId", slot)
);

CREATE TABLE "crawler_ip_ranges" (
  crawler text NOT NULL,
  prefixes text[] NOT NULL,
  source text NOT NULL,
  "publishedAt" timestamp(3) without time zone,
  "importedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT crawler_ip_ranges_pkey PRIMARY KEY (crawler)
);

CREATE TABLE "events" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid,
  "checkId" uuid,
  "captureId" uuid,
  kind text NOT NULL,
  "actorUserId" text,
  "actorApiKeyId" uuid,
  data jsonb,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "events_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "events_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES checks(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT events_metrics_repairs TRIGGER DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT events_pkey PRIMARY KEY (id),
  CONSTRAINT "events_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "grant_spend_periods" (
  "connectionId" uuid NOT NULL,
  "workspaceId" uuid NOT NULL,
  "periodStart" date NOT NULL,
  "inFlightMicros" bigint NOT NULL DEFAULT 0,
  "chargedMicros" bigint NOT NULL DEFAULT 0,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  shard smallint NOT NULL DEFAULT 0,
  CONSTRAINT "grant_spend_periods_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT grant_spend_periods_pkey PRIMARY KEY ("connectionId", "workspaceId", "periodStart", shard),
  CONSTRAINT "grant_spend_periods_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "instance_operators" (
  "userId" text NOT NULL,
  "grantedById" text,
  "grantedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT instance_operators_pkey PRIMARY KEY ("userId"),
  CONSTRAINT "instance_operators_userId_fkey" FOREIGN KEY ("userId") REFERENCES users(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "invitations" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  email text NOT NULL,
  role "Role" NOT NULL,
  "tokenHash" text NOT NULL,
  "invitedById" text NOT NULL,
  "expiresAt" timestamp(3) without time zone NOT NULL,
  "acceptedAt" timestamp(3) without time zone,
  "acceptedById" text,
  "revokedAt" timestamp(3) without time zone,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT invitations_pkey PRIMARY KEY (id),
  CONSTRAINT "invitations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "memberships" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "userId" text NOT NULL,
  role "Role" NOT NULL,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT memberships_pkey PRIMARY KEY (id),
  CONSTRAINT "memberships_userId_fkey" FOREIGN KEY ("userId") REFERENCES users(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "memberships_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "mentions" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "captureId" uuid NOT NULL,
  kind "EntityKind" NOT NULL,
  "brandId" uuid,
  "competitorId" uuid,
  name text NOT NULL,
  mentioned boolean NOT NULL,
  count integer NOT NULL DEFAULT 0,
  "position" integer,
  sentiment "Sentiment",
  CONSTRAINT "mentions_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "mentions_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT mentions_pkey PRIMARY KEY (id),
  CONSTRAINT "mentions_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "metric_accepted_hours" (
  slot smallint NOT NULL,
  shard smallint NOT NULL,
  "startsAt" timestamp(3) without time zone NOT NULL,
  accepted bigint NOT NULL DEFAULT 0,
  "costMicros" bigint NOT NULL DEFAULT 0,
  CONSTRAINT metric_accepted_hours_pkey PRIMARY KEY (slot, shard)
);

CREATE TABLE "metric_alert_delivery_counts" (
  "channelKind" "AlertChannelKind" NOT NULL,
  outcome text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  CONSTRAINT metric_alert_delivery_counts_pkey PRIMARY KEY ("channelKind", outcome)
);

CREATE TABLE "metric_attempt_counts" (
  provider text NOT NULL,
  shard smallint NOT NULL,
  running bigint NOT NULL DEFAULT 0,
  succeeded bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  unknown bigint NOT NULL DEFAULT 0,
  cancelled bigint NOT NULL DEFAULT 0,
  "leaseExpired" bigint NOT NULL DEFAULT 0,
  CONSTRAINT metric_attempt_counts_pkey PRIMARY KEY (provider, shard)
);

CREATE TABLE "metric_attempt_minutes" (
  slot smallint NOT NULL,
  shard smallint NOT NULL,
  "startsAt" timestamp(3) without time zone NOT NULL,
  attempts bigint NOT NULL DEFAULT 0,
  retries bigint NOT NULL DEFAULT 0,
  CONSTRAINT metric_attempt_minutes_pkey PRIMARY KEY (slot, shard)
);

CREATE TABLE "metric_capture_counts" (
  shard smallint NOT NULL,
  created bigint NOT NULL DEFAULT 0,
  accepted bigint NOT NULL DEFAULT 0,
  queued bigint NOT NULL DEFAULT 0,
  "retryWait" bigint NOT NULL DEFAULT 0,
  postponed bigint NOT NULL DEFAULT 0,
  "waitingForBudget" bigint NOT NULL DEFAULT 0,
  running bigint NOT NULL DEFAULT 0,
  CONSTRAINT metric_capture_counts_pkey PRIMARY KEY (shard)
);

CREATE TABLE "metric_repair_counts" (
  kind text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  CONSTRAINT metric_repair_counts_pkey PRIMARY KEY (kind)
);

CREATE TABLE "prompt_versions" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  number integer NOT NULL,
  text text NOT NULL,
  country text,
  city text,
  language text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT prompt_versions_pkey PRIMARY KEY (id),
  CONSTRAINT "prompt_versions_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT "prompt_versions_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "prompts" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  text text NOT NULL,
  tags text[] NOT NULL DEFAULT ARRAY[]::text[],
  country text,
  language text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "deletedAt" timestamp(3) without time zone,
  city text,
  CONSTRAINT prompts_pkey PRIMARY KEY (id),
  CONSTRAINT "prompts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "provider_configs" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  name text NOT NULL,
  model text NOT NULL,
  "searchMode" "SearchMode" NOT NULL DEFAULT 'auto'::"SearchMode",
  enabled boolean NOT NULL DEFAULT true,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "connectionId" uuid NOT NULL,
  CONSTRAINT "provider_configs_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT provider_configs_pkey PRIMARY KEY (id),
  CONSTRAINT "provider_configs_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "provider_connections" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  adapter text NOT NULL,
  models text[] NOT NULL DEFAULT ARRAY[]::text[],
  "inputPricePerMTokMicros" integer NOT NULL DEFAULT 0,
  "outputPricePerMTokMicros" integer NOT NULL DEFAULT 0,
  "cachedPricePerMTokMicros" integer NOT NULL DEFAULT 0,
  "reasoningPricePerMTokMicros" integer NOT NULL DEFAULT 0,
  "searchPriceMicros" integer NOT NULL DEFAULT 0,
  "maxConcurrency" integer NOT NULL DEFAULT 4,
  "maxAttempts" integer NOT NULL DEFAULT 3,
  "unknownRetries" integer NOT NULL DEFAULT 1,
  "timeoutMs" integer NOT NULL DEFAULT 120000,
  "maxOutputTokens" integer NOT NULL DEFAULT 2048,
  "maxSearchCalls" integer NOT NULL DEFAULT 3,
  "breakerWindowSize" integer NOT NULL DEFAULT 20,
  "breakerMinCalls" integer NOT NULL DEFAULT 10,
  "breakerFailureRatePct" integer NOT NULL DEFAULT 50,
  "breakerOpenSeconds" integer NOT NULL DEFAULT 45,
  "breakerSlowCallMs" integer NOT NULL DEFAULT 60000,
  "breakerSlowCallIsFailure" boolean NOT NULL DEFAULT false,
  "breakerProbeTimeoutMs" integer NOT NULL DEFAULT 15000,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  enabled boolean NOT NULL DEFAULT true,
  "grantedToAll" boolean NOT NULL DEFAULT false,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT provider_connections_pkey PRIMARY KEY (id)
);

CREATE TABLE "rollup_answers" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  captures integer NOT NULL DEFAULT 0,
  "costMicros" bigint NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  mentioned integer NOT NULL DEFAULT 0,
  "positionN" integer NOT NULL DEFAULT 0,
  "positionSum" bigint NOT NULL DEFAULT 0,
  "positionSumSq" bigint NOT NULL DEFAULT 0,
  position1 integer NOT NULL DEFAULT 0,
  position2 integer NOT NULL DEFAULT 0,
  position3 integer NOT NULL DEFAULT 0,
  position4 integer NOT NULL DEFAULT 0,
  "position5Plus" integer NOT NULL DEFAULT 0,
  positive integer NOT NULL DEFAULT 0,
  neutral integer NOT NULL DEFAULT 0,
  negative integer NOT NULL DEFAULT 0,
  "sumY" bigint NOT NULL DEFAULT 0,
  "sumX" bigint NOT NULL DEFAULT 0,
  "sumYY" bigint NOT NULL DEFAULT 0,
  "sumXX" bigint NOT NULL DEFAULT 0,
  "sumXY" bigint NOT NULL DEFAULT 0,
  "citingOwn" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_answers_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_answers_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId"),
  CONSTRAINT "rollup_answers_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_answers_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_answers_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_attempts" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  "costMicros" bigint NOT NULL DEFAULT 0,
  "wastedMicros" bigint NOT NULL DEFAULT 0,
  "wastedAttempts" integer NOT NULL DEFAULT 0,
  "chargedWastedAttempts" integer NOT NULL DEFAULT 0,
  "unknownAttempts" integer NOT NULL DEFAULT 0,
  "unknownCostMicros" bigint NOT NULL DEFAULT 0,
  "estimatedCostMicros" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_attempts_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_attempts_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId"),
  CONSTRAINT "rollup_attempts_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_attempts_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_attempts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_day_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_day_totals_pkey PRIMARY KEY ("workspaceId", "brandId", day, key, name),
  CONSTRAINT "rollup_candidate_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_days" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_days_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_days_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", key, name),
  CONSTRAINT "rollup_candidate_days_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_prompt_days" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "promptId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_prompt_days_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_prompt_days_pkey PRIMARY KEY ("workspaceId", "brandId", day, "promptId", key, name),
  CONSTRAINT "rollup_candidate_prompt_days_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_prompt_provider_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_prompt_provider_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_prompt_provider_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "providerConfigId", "promptId", key, name),
  CONSTRAINT "rollup_candidate_prompt_provider_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_prompt_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "promptId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_prompt_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_prompt_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "promptId", key, name),
  CONSTRAINT "rollup_candidate_prompt_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_week_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_week_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_week_totals_pkey PRIMARY KEY ("workspaceId", "brandId", week, key, name),
  CONSTRAINT "rollup_candidate_week_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidate_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidate_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidate_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "providerConfigId", key, name),
  CONSTRAINT "rollup_candidate_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_candidates" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_candidates_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_candidates_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId", key, name),
  CONSTRAINT "rollup_candidates_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_citations" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_citations_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_citations_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId", domain),
  CONSTRAINT "rollup_citations_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_citations_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_citations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_day_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_day_totals_pkey PRIMARY KEY ("workspaceId", "brandId", day, url, domain),
  CONSTRAINT "rollup_cited_page_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_month_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  month date NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_month_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_month_totals_pkey PRIMARY KEY ("workspaceId", "brandId", month, url, domain),
  CONSTRAINT "rollup_cited_page_month_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_prompt_days" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "promptId" uuid NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  title text,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_prompt_days_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_prompt_days_pkey PRIMARY KEY ("workspaceId", "brandId", day, "promptId", url, domain),
  CONSTRAINT "rollup_cited_page_prompt_days_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_cited_page_prompt_days_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_prompt_months" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  month date NOT NULL,
  "promptId" uuid NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_prompt_months_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_prompt_months_pkey PRIMARY KEY ("workspaceId", "brandId", month, "promptId", url, domain),
  CONSTRAINT "rollup_cited_page_prompt_months_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_cited_page_prompt_months_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_prompt_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "promptId" uuid NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_prompt_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_prompt_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "promptId", url, domain),
  CONSTRAINT "rollup_cited_page_prompt_weeks_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_cited_page_prompt_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_week_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_week_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_week_totals_pkey PRIMARY KEY ("workspaceId", "brandId", week, url, domain),
  CONSTRAINT "rollup_cited_page_week_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_page_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_page_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_page_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "providerConfigId", url, domain),
  CONSTRAINT "rollup_cited_page_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_cited_page_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_cited_pages" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  title text,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_cited_pages_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_cited_pages_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", url, domain),
  CONSTRAINT "rollup_cited_pages_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_cited_pages_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_domain_day_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_domain_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_domain_day_totals_pkey PRIMARY KEY ("workspaceId", "brandId", day, domain),
  CONSTRAINT "rollup_domain_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_domain_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_domain_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_domain_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "providerConfigId", domain),
  CONSTRAINT "rollup_domain_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_domain_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_domains" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_domains_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_domains_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", domain),
  CONSTRAINT "rollup_domains_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_domains_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_gap_source_prompts" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  domain text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  "offSite" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_gap_source_prompts_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_gap_source_prompts_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name),
  CONSTRAINT "rollup_gap_source_prompts_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_gap_source_prompts_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_gap_source_prompts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_gap_source_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  "offSite" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_gap_source_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_gap_source_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", week, "providerConfigId", domain, name),
  CONSTRAINT "rollup_gap_source_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_gap_source_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_gap_sources" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  "offSite" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_gap_sources_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_gap_sources_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", domain, name),
  CONSTRAINT "rollup_gap_sources_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_gap_sources_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_mentions" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  entity text NOT NULL,
  name text NOT NULL,
  rows integer NOT NULL DEFAULT 0,
  mentions bigint NOT NULL DEFAULT 0,
  ahead integer NOT NULL DEFAULT 0,
  instead integer NOT NULL DEFAULT 0,
  "sumYY" bigint NOT NULL DEFAULT 0,
  "sumXY" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_mentions_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_mentions_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId", entity),
  CONSTRAINT "rollup_mentions_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_mentions_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_mentions_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_own_pages" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  "promptId" uuid NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  title text,
  "titleAt" timestamp(3) without time zone,
  CONSTRAINT "rollup_own_pages_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_own_pages_pkey PRIMARY KEY ("workspaceId", "brandId", day, "providerConfigId", "promptId", url, domain),
  CONSTRAINT "rollup_own_pages_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES prompts(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_own_pages_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_own_pages_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_candidate_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  week date NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_candidate_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_candidate_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", tag, week, key, name),
  CONSTRAINT "rollup_tag_candidate_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_candidates" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  day date NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_candidates_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_candidates_pkey PRIMARY KEY ("workspaceId", "brandId", tag, day, key, name),
  CONSTRAINT "rollup_tag_candidates_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_cited_page_months" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  month date NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_cited_page_months_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_cited_page_months_pkey PRIMARY KEY ("workspaceId", "brandId", tag, month, url, domain),
  CONSTRAINT "rollup_tag_cited_page_months_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_cited_page_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  week date NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  answers integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_cited_page_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_cited_page_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", tag, week, url, domain),
  CONSTRAINT "rollup_tag_cited_page_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_domain_day_totals" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_domain_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_domain_day_totals_pkey PRIMARY KEY ("workspaceId", "brandId", tag, day, domain),
  CONSTRAINT "rollup_tag_domain_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_domain_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_domain_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_domain_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", tag, week, "providerConfigId", domain),
  CONSTRAINT "rollup_tag_domain_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_tag_domain_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_domains" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  citations integer NOT NULL DEFAULT 0,
  "ownCitations" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_domains_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_domains_pkey PRIMARY KEY ("workspaceId", "brandId", tag, day, "providerConfigId", domain),
  CONSTRAINT "rollup_tag_domains_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_tag_domains_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_gap_source_weeks" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  week date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  "offSite" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_gap_source_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_gap_source_weeks_pkey PRIMARY KEY ("workspaceId", "brandId", tag, week, "providerConfigId", domain, name),
  CONSTRAINT "rollup_tag_gap_source_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_tag_gap_source_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "rollup_tag_gap_sources" (
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  tag text NOT NULL,
  day date NOT NULL,
  "providerConfigId" uuid NOT NULL,
  domain text NOT NULL,
  name text NOT NULL,
  answers integer NOT NULL DEFAULT 0,
  "offSite" integer NOT NULL DEFAULT 0,
  CONSTRAINT "rollup_tag_gap_sources_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT rollup_tag_gap_sources_pkey PRIMARY KEY ("workspaceId", "brandId", tag, day, "providerConfigId", domain, name),
  CONSTRAINT "rollup_tag_gap_sources_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES provider_configs(id) ON UPDATE CASCADE ON DELETE RESTRICT,
  CONSTRAINT "rollup_tag_gap_sources_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "schedules" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  name text NOT NULL,
  "brandId" uuid NOT NULL,
  "promptSelection" jsonb NOT NULL,
  "providerConfigIds" uuid[] NOT NULL,
  samples integer NOT NULL DEFAULT 1,
  cadence "ScheduleCadence" NOT NULL,
  weekday integer,
  "minuteOfDay" integer NOT NULL,
  paused boolean NOT NULL DEFAULT false,
  "nextRunAt" timestamp(3) without time zone NOT NULL,
  "lastRunAt" timestamp(3) without time zone,
  "createdById" text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "createKey" uuid,
  "editVersion" integer NOT NULL DEFAULT 0,
  CONSTRAINT "schedules_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT schedules_pkey PRIMARY KEY (id),
  CONSTRAINT "schedules_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "search_queries" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "captureId" uuid NOT NULL,
  query text NOT NULL,
  "position" integer NOT NULL,
  CONSTRAINT "search_queries_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES captures(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT search_queries_pkey PRIMARY KEY (id),
  CONSTRAINT "search_queries_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "sessions" (
  id text NOT NULL,
  "expiresAt" timestamp(3) without time zone NOT NULL,
  token text NOT NULL,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "ipAddress" text,
  "userAgent" text,
  "userId" text NOT NULL,
  CONSTRAINT sessions_pkey PRIMARY KEY (id),
  CONSTRAINT "sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES users(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "setup_suggestions" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "requestedById" text,
  domain text NOT NULL,
  language text NOT NULL,
  country text,
  "connectionId" uuid NOT NULL,
  model text NOT NULL,
  status "SetupSuggestionStatus" NOT NULL DEFAULT 'queued'::"SetupSuggestionStatus",
  result jsonb,
  error text,
  "reservedMicros" bigint NOT NULL DEFAULT 0,
  "costMicros" bigint,
  "budgetPeriod" date NOT NULL,
  "checkId" uuid,
  "acceptedAt" timestamp(3) without time zone,
  "finishedAt" timestamp(3) without time zone,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "runToken" uuid,
  "workerId" text,
  "startedAt" timestamp(6) without time zone,
  address text,
  offering text,
  CONSTRAINT "setup_suggestions_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES checks(id) ON UPDATE CASCADE ON DELETE SET NULL,
  CONSTRAINT "setup_suggestions_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES provider_connections(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT setup_suggestions_pkey PRIMARY KEY (id),
  CONSTRAINT "setup_suggestions_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "share_links" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  "brandId" uuid NOT NULL,
  label text NOT NULL DEFAULT ''::text,
  "tokenHash" text NOT NULL,
  "providerConfigIds" uuid[] NOT NULL DEFAULT ARRAY[]::uuid[],
  tags text[] NOT NULL DEFAULT ARRAY[]::text[],
  markets text[] NOT NULL DEFAULT ARRAY[]::text[],
  "rangeDays" integer,
  "fromDay" date,
  "toDay" date,
  "expiresAt" timestamp(3) without time zone NOT NULL,
  "revokedAt" timestamp(3) without time zone,
  "createdById" text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lastViewedAt" timestamp(3) without time zone,
  "viewCount" integer NOT NULL DEFAULT 0,
  CONSTRAINT "share_links_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES brands(id) ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT share_links_period_check CHECK ((("rangeDays" IS NOT NULL) <> (("fromDay" IS NOT NULL) AND ("toDay" IS NOT NULL)))),
  CONSTRAINT share_links_pkey PRIMARY KEY (id),
  CONSTRAINT "share_links_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "site_readiness" (
  "workspaceId" uuid NOT NULL,
  domain text NOT NULL,
  "checkedAt" timestamp(3) without time zone NOT NULL,
  "robotsOutcome" text NOT NULL,
  "robotsStatus" smallint,
  "llmsTxt" boolean NOT NULL,
  "llmsTxtStatus" smallint,
  pages jsonb NOT NULL,
  crawlers jsonb NOT NULL,
  CONSTRAINT site_readiness_pkey PRIMARY KEY ("workspaceId", domain),
  CONSTRAINT "site_readiness_robotsOutcome_check" CHECK (("robotsOutcome" = ANY (ARRAY['found'::text, 'missing'::text, 'unreachable'::text]))),
  CONSTRAINT "site_readiness_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "site_readiness_blocked_pages" (
  "workspaceId" uuid NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  "blockedFor" text[] NOT NULL,
  CONSTRAINT site_readiness_blocked_pages_pkey PRIMARY KEY ("workspaceId", domain, path),
  CONSTRAINT "site_readiness_blocked_pages_workspaceId_domain_fkey" FOREIGN KEY ("workspaceId", domain) REFERENCES site_readiness("workspaceId", domain) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "source_category_overrides" (
  "workspaceId" uuid NOT NULL,
  domain text NOT NULL,
  category "SourceCategory" NOT NULL,
  "updatedById" text,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT source_category_overrides_pkey PRIMARY KEY ("workspaceId", domain),
  CONSTRAINT "source_category_overrides_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "traffic_crawls_daily" (
  "workspaceId" uuid NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  crawler text NOT NULL,
  verification text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_crawls_daily_pkey PRIMARY KEY ("workspaceId", day, domain, crawler, verification)
);

CREATE TABLE "traffic_daily" (
  "workspaceId" uuid NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  crawler text NOT NULL,
  verification text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_daily_pkey PRIMARY KEY ("workspaceId", domain, path, day, crawler, verification) INCLUDE (hits)
);

CREATE TABLE "traffic_hits" (
  id bigint NOT NULL DEFAULT nextval('traffic_hits_id_seq'::regclass),
  "workspaceId" uuid NOT NULL,
  day date NOT NULL,
  at timestamp(3) without time zone NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  crawler text NOT NULL,
  verification text NOT NULL,
  status smallint NOT NULL,
  CONSTRAINT traffic_hits_pkey PRIMARY KEY (id),
  CONSTRAINT traffic_hits_verification_check CHECK ((verification = ANY (ARRAY['verified'::text, 'unverified'::text, 'unchecked'::text])))
);

CREATE TABLE "traffic_imports" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  "workspaceId" uuid NOT NULL,
  key text NOT NULL,
  "requestHash" text NOT NULL,
  state "TrafficImportState" NOT NULL DEFAULT 'running'::"TrafficImportState",
  token integer NOT NULL DEFAULT 1,
  "leaseUntil" timestamp(3) without time zone,
  "committedLines" integer NOT NULL DEFAULT 0,
  "committedHash" text,
  "committedHits" integer NOT NULL DEFAULT 0,
  "bodyHash" text,
  report jsonb,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt" timestamp(3) without time zone NOT NULL,
  "fallbackHost" text,
  CONSTRAINT traffic_imports_pkey PRIMARY KEY (id),
  CONSTRAINT "traffic_imports_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "traffic_pages_daily" (
  "workspaceId" uuid NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_pages_daily_pkey PRIMARY KEY ("workspaceId", day, domain, path)
);

CREATE TABLE "traffic_pages_monthly" (
  "workspaceId" uuid NOT NULL,
  month date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_pages_monthly_pkey PRIMARY KEY ("workspaceId", month, domain, path)
);

CREATE TABLE "traffic_pages_weekly" (
  "workspaceId" uuid NOT NULL,
  week date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_pages_weekly_pkey PRIMARY KEY ("workspaceId", week, domain, path)
);

CREATE TABLE "traffic_site_keys" (
  "workspaceId" uuid NOT NULL,
  key text NOT NULL,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "windowStart" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "windowCount" integer NOT NULL DEFAULT 0,
  "firstCreatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT traffic_site_keys_pkey PRIMARY KEY ("workspaceId"),
  CONSTRAINT "traffic_site_keys_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "traffic_visits_assistants_daily" (
  "workspaceId" uuid NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  assistant text NOT NULL,
  visits integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_visits_assistants_daily_pkey PRIMARY KEY ("workspaceId", day, domain, assistant),
  CONSTRAINT "traffic_visits_assistants_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "traffic_visits_daily" (
  "workspaceId" uuid NOT NULL,
  day date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  assistant text NOT NULL,
  visits integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_visits_daily_pkey PRIMARY KEY ("workspaceId", day, domain, path, assistant),
  CONSTRAINT "traffic_visits_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "traffic_visits_pages_monthly" (
  "workspaceId" uuid NOT NULL,
  month date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  visits integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_visits_pages_monthly_pkey PRIMARY KEY ("workspaceId", month, domain, path),
  CONSTRAINT "traffic_visits_pages_monthly_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "traffic_visits_pages_weekly" (
  "workspaceId" uuid NOT NULL,
  week date NOT NULL,
  domain text NOT NULL,
  path text NOT NULL,
  visits integer NOT NULL DEFAULT 0,
  CONSTRAINT traffic_visits_pages_weekly_pkey PRIMARY KEY ("workspaceId", week, domain, path),
  CONSTRAINT "traffic_visits_pages_weekly_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "users" (
  id text NOT NULL,
  name text NOT NULL,
  email text NOT NULL,
  "emailVerified" boolean NOT NULL DEFAULT false,
  image text,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT users_pkey PRIMARY KEY (id)
);

CREATE TABLE "verifications" (
  id text NOT NULL,
  identifier text NOT NULL,
  value text NOT NULL,
  "expiresAt" timestamp(3) without time zone NOT NULL,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT verifications_pkey PRIMARY KEY (id)
);

CREATE TABLE "worker_contact" (
  id smallint NOT NULL DEFAULT 1,
  "lastContactAt" timestamp(3) without time zone NOT NULL,
  "reachableSince" timestamp(3) without time zone NOT NULL,
  CONSTRAINT worker_contact_one_row CHECK ((id = 1)),
  CONSTRAINT worker_contact_pkey PRIMARY KEY (id)
);

CREATE TABLE "worker_heartbeats" (
  "workerId" text NOT NULL,
  "slotIds" text[] NOT NULL DEFAULT ARRAY[]::text[],
  hostname text NOT NULL,
  pid integer NOT NULL,
  concurrency integer NOT NULL,
  status text NOT NULL DEFAULT 'running'::text,
  "startedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lastSeenAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "leaseExpiresAt" timestamp(3) without time zone NOT NULL,
  "stoppedAt" timestamp(3) without time zone,
  "expiredAt" timestamp(3) without time zone,
  metrics text,
  "activeRunTokens" uuid[] NOT NULL DEFAULT ARRAY[]::uuid[],
  "activeAsOf" timestamp(6) without time zone,
  CONSTRAINT worker_heartbeats_pkey PRIMARY KEY ("workerId")
);

CREATE TABLE "workspace_brandings" (
  "workspaceId" uuid NOT NULL,
  "agencyName" text,
  logo bytea,
  "logoType" text,
  "updatedById" text,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT workspace_brandings_pkey PRIMARY KEY ("workspaceId"),
  CONSTRAINT "workspace_brandings_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES workspaces(id) ON UPDATE CASCADE ON DELETE CASCADE
);

CREATE TABLE "workspaces" (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  slug text NOT NULL,
  name text NOT NULL,
  "monthlyBudgetMicros" bigint,
  "createdAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" timestamp(3) without time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT workspaces_pkey PRIMARY KEY (id)
);

CREATE UNIQUE INDEX _prisma_migrations_pkey ON public._prisma_migrations USING btree (id);

CREATE UNIQUE INDEX accounts_pkey ON public.accounts USING btree (id);

CREATE INDEX "accounts_userId_idx" ON public.accounts USING btree ("userId");

CREATE UNIQUE INDEX alert_channels_pkey ON public.alert_channels USING btree (id);

CREATE UNIQUE INDEX "alert_channels_workspaceId_name_key" ON public.alert_channels USING btree ("workspaceId", name);

CREATE INDEX "alert_deliveries_channelId_idx" ON public.alert_deliveries USING btree ("channelId");

CREATE INDEX "alert_deliveries_firingId_idx" ON public.alert_deliveries USING btree ("firingId");

CREATE UNIQUE INDEX alert_deliveries_pkey ON public.alert_deliveries USING btree (id);

CREATE INDEX "alert_deliveries_workspaceId_createdAt_idx" ON public.alert_deliveries USING btree ("workspaceId", "createdAt");

CREATE UNIQUE INDEX alert_firings_pkey ON public.alert_firings USING btree (id);

CREATE UNIQUE INDEX "alert_firings_ruleId_dedupeKey_key" ON public.alert_firings USING btree ("ruleId", "dedupeKey");

CREATE INDEX "alert_firings_workspaceId_firedAt_idx" ON public.alert_firings USING btree ("workspaceId", "firedAt");

CREATE INDEX "alert_rule_channels_channelId_idx" ON public.alert_rule_channels USING btree ("channelId");

CREATE UNIQUE INDEX alert_rule_channels_pkey ON public.alert_rule_channels USING btree ("ruleId", "channelId");

CREATE UNIQUE INDEX alert_rules_pkey ON public.alert_rules USING btree (id);

CREATE UNIQUE INDEX "alert_rules_workspaceId_createKey_key" ON public.alert_rules USING btree ("workspaceId", "createKey");

CREATE INDEX "alert_rules_workspaceId_idx" ON public.alert_rules USING btree ("workspaceId");

CREATE UNIQUE INDEX analysis_runs_pkey ON public.analysis_runs USING btree (id);

CREATE INDEX "analysis_runs_workspaceId_brandId_createdAt_idx" ON public.analysis_runs USING btree ("workspaceId", "brandId", "createdAt");

CREATE UNIQUE INDEX "api_keys_keyHash_key" ON public.api_keys USING btree ("keyHash");

CREATE UNIQUE INDEX api_keys_pkey ON public.api_keys USING btree (id);

CREATE INDEX "api_keys_workspaceId_idx" ON public.api_keys USING btree ("workspaceId");

CREATE UNIQUE INDEX "attempts_captureId_number_key" ON public.attempts USING btree ("captureId", number);

CREATE INDEX "attempts_outcome_workerId_idx" ON public.attempts USING btree (outcome, "workerId");

CREATE UNIQUE INDEX attempts_pkey ON public.attempts USING btree (id);

CREATE UNIQUE INDEX "attempts_runToken_key" ON public.attempts USING btree ("runToken");

CREATE INDEX "attempts_workerId_outcome_idx" ON public.attempts USING btree ("workerId", outcome);

CREATE INDEX "attempts_workspaceId_startedAt_idx" ON public.attempts USING btree ("workspaceId", "startedAt");

CREATE INDEX "auth_attempts_attemptedAt_idx" ON public.auth_attempts USING btree ("attemptedAt");

CREATE INDEX "auth_attempts_bucket_attemptedAt_idx" ON public.auth_attempts USING btree (bucket, "attemptedAt");

CREATE UNIQUE INDEX auth_attempts_pkey ON public.auth_attempts USING btree (id);

CREATE UNIQUE INDEX beacon_sql_objects_pkey ON public.beacon_sql_objects USING btree (name);

CREATE UNIQUE INDEX brands_pkey ON public.brands USING btree (id);

CREATE UNIQUE INDEX "brands_workspaceId_name_key" ON public.brands USING btree ("workspaceId", name);

CREATE UNIQUE INDEX breaker_states_pkey ON public.breaker_states USING btree ("connectionId", model);

CREATE UNIQUE INDEX budget_periods_pkey ON public.budget_periods USING btree ("workspaceId", "periodStart", shard);

CREATE UNIQUE INDEX capture_candidates_pkey ON public.capture_candidates USING btree ("captureId", key);

CREATE INDEX "capture_candidates_workspaceId_brandId_key_finishedAt_captu_idx" ON public.capture_candidates USING btree ("workspaceId", "brandId", key, "finishedAt", "captureId");

CREATE UNIQUE INDEX "captures_checkId_promptId_providerConfigId_sample_key" ON public.captures USING btree ("checkId", "promptId", "providerConfigId", sample);

CREATE INDEX "captures_checkId_status_idx" ON public.captures USING btree ("checkId", status);

CREATE INDEX "captures_connectionId_status_workspaceId_idx" ON public.captures USING btree ("connectionId", status, "workspaceId");

CREATE UNIQUE INDEX captures_pkey ON public.captures USING btree (id);

CREATE INDEX "captures_status_connectionId_idx" ON public.captures USING btree (status, "connectionId");

CREATE INDEX "captures_workspaceId_brandId_finishedAt_idx" ON public.captures USING btree ("workspaceId", "brandId", "finishedAt");

CREATE INDEX "captures_workspaceId_createdAt_sample_id_idx" ON public.captures USING btree ("workspaceId", "createdAt" DESC, sample, id);

CREATE INDEX "captures_workspaceId_providerConfigId_finishedAt_idx" ON public.captures USING btree ("workspaceId", "providerConfigId", "finishedAt");

CREATE INDEX "captures_workspaceId_status_idx" ON public.captures USING btree ("workspaceId", status);

CREATE INDEX "check_operations_checkId_createdAt_idx" ON public.check_operations USING btree ("checkId", "createdAt");

CREATE UNIQUE INDEX check_operations_pkey ON public.check_operations USING btree (id);

CREATE UNIQUE INDEX checks_pkey ON public.checks USING btree (id);

CREATE INDEX "checks_scheduleId_createdAt_idx" ON public.checks USING btree ("scheduleId", "createdAt");

CREATE INDEX checks_unfinished_idx ON public.checks USING btree (id) WHERE ("finishedAt" IS NULL);

CREATE INDEX "checks_workspaceId_createdAt_idx" ON public.checks USING btree ("workspaceId", "createdAt");

CREATE UNIQUE INDEX "checks_workspaceId_idempotencyKey_key" ON public.checks USING btree ("workspaceId", "idempotencyKey");

CREATE INDEX "checks_workspaceId_status_idx" ON public.checks USING btree ("workspaceId", status);

CREATE INDEX "citations_captureId_idx" ON public.citations USING btree ("captureId");

CREATE UNIQUE INDEX citations_pkey ON public.citations USING btree (id);

CREATE INDEX "citations_workspaceId_domain_idx" ON public.citations USING btree ("workspaceId", domain);

CREATE UNIQUE INDEX "competitors_brandId_name_key" ON public.competitors USING btree ("brandId", name);

CREATE UNIQUE INDEX competitors_pkey ON public.competitors USING btree (id);

CREATE INDEX "competitors_workspaceId_idx" ON public.competitors USING btree ("workspaceId");

CREATE UNIQUE INDEX connection_grants_pkey ON public.connection_grants USING btree ("connectionId", "workspaceId");

CREATE INDEX "connection_grants_workspaceId_idx" ON public.connection_grants USING btree ("workspaceId");

CREATE UNIQUE INDEX "connection_slots_captureId_key" ON public.connection_slots USING btree ("captureId");

CREATE INDEX connection_slots_free_idx ON public.connection_slots USING btree ("connectionId", slot) WHERE ("captureId" IS NULL);

CREATE UNIQUE INDEX connection_slots_pkey ON public.connection_slots USING btree ("connectionId", slot);

CREATE UNIQUE INDEX crawler_ip_ranges_pkey ON public.crawler_ip_ranges USING btree (crawler);

CREATE INDEX "events_captureId_createdAt_idx" ON public.events USING btree ("captureId", "createdAt");

CREATE INDEX "events_checkId_createdAt_idx" ON public.events USING btree ("checkId", "createdAt");

CREATE INDEX events_kind_idx ON public.events USING btree (kind);

CREATE UNIQUE INDEX events_pkey ON public.events USING btree (id);

CREATE INDEX "events_workspaceId_createdAt_idx" ON public.events USING btree ("workspaceId", "createdAt");

CREATE UNIQUE INDEX grant_spend_periods_pkey ON public.grant_spend_periods USING btree ("connectionId", "workspaceId", "periodStart", shard);

CREATE UNIQUE INDEX instance_operators_pkey ON public.instance_operators USING btree ("userId");

CREATE UNIQUE INDEX invitations_pkey ON public.invitations USING btree (id);

CREATE UNIQUE INDEX "invitations_tokenHash_key" ON public.invitations USING btree ("tokenHash");

CREATE INDEX "invitations_workspaceId_idx" ON public.invitations USING btree ("workspaceId");

CREATE UNIQUE INDEX memberships_pkey ON public.memberships USING btree (id);

CREATE INDEX "memberships_userId_idx" ON public.memberships USING btree ("userId");

CREATE UNIQUE INDEX "memberships_workspaceId_userId_key" ON public.memberships USING btree ("workspaceId", "userId");

CREATE INDEX "mentions_captureId_idx" ON public.mentions USING btree ("captureId");

CREATE INDEX "mentions_competitorId_idx" ON public.mentions USING btree ("competitorId");

CREATE UNIQUE INDEX mentions_pkey ON public.mentions USING btree (id);

CREATE INDEX "mentions_workspaceId_brandId_idx" ON public.mentions USING btree ("workspaceId", "brandId");

CREATE UNIQUE INDEX metric_accepted_hours_pkey ON public.metric_accepted_hours USING btree (slot, shard);

CREATE UNIQUE INDEX metric_alert_delivery_counts_pkey ON public.metric_alert_delivery_counts USING btree ("channelKind", outcome);

CREATE UNIQUE INDEX metric_attempt_counts_pkey ON public.metric_attempt_counts USING btree (provider, shard);

CREATE UNIQUE INDEX metric_attempt_minutes_pkey ON public.metric_attempt_minutes USING btree (slot, shard);

CREATE UNIQUE INDEX metric_capture_counts_pkey ON public.metric_capture_counts USING btree (shard);

CREATE UNIQUE INDEX metric_repair_counts_pkey ON public.metric_repair_counts USING btree (kind);

CREATE UNIQUE INDEX prompt_versions_pkey ON public.prompt_versions USING btree (id);

CREATE UNIQUE INDEX "prompt_versions_promptId_number_key" ON public.prompt_versions USING btree ("promptId", number);

CREATE UNIQUE INDEX prompts_live_text_idx ON public.prompts USING btree ("workspaceId", lower(text)) WHERE ("deletedAt" IS NULL);

CREATE UNIQUE INDEX prompts_pkey ON public.prompts USING btree (id);

CREATE INDEX prompts_tags_idx ON public.prompts USING gin (tags);

CREATE INDEX "prompts_workspaceId_deletedAt_idx" ON public.prompts USING btree ("workspaceId", "deletedAt");

CREATE UNIQUE INDEX provider_configs_pkey ON public.provider_configs USING btree (id);

CREATE UNIQUE INDEX "provider_configs_workspaceId_name_key" ON public.provider_configs USING btree ("workspaceId", name);

CREATE UNIQUE INDEX provider_connections_name_key ON public.provider_connections USING btree (name);

CREATE UNIQUE INDEX provider_connections_pkey ON public.provider_connections USING btree (id);

CREATE UNIQUE INDEX rollup_answers_pkey ON public.rollup_answers USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId");

CREATE UNIQUE INDEX rollup_attempts_pkey ON public.rollup_attempts USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId");

CREATE UNIQUE INDEX rollup_candidate_day_totals_pkey ON public.rollup_candidate_day_totals USING btree ("workspaceId", "brandId", day, key, name);

CREATE UNIQUE INDEX rollup_candidate_days_pkey ON public.rollup_candidate_days USING btree ("workspaceId", "brandId", day, "providerConfigId", key, name);

CREATE UNIQUE INDEX rollup_candidate_prompt_days_pkey ON public.rollup_candidate_prompt_days USING btree ("workspaceId", "brandId", day, "promptId", key, name);

CREATE UNIQUE INDEX rollup_candidate_prompt_provider_weeks_pkey ON public.rollup_candidate_prompt_provider_weeks USING btree ("workspaceId", "brandId", week, "providerConfigId", "promptId", key, name);

CREATE UNIQUE INDEX rollup_candidate_prompt_weeks_pkey ON public.rollup_candidate_prompt_weeks USING btree ("workspaceId", "brandId", week, "promptId", key, name);

CREATE UNIQUE INDEX rollup_candidate_week_totals_pkey ON public.rollup_candidate_week_totals USING btree ("workspaceId", "brandId", week, key, name);

CREATE UNIQUE INDEX rollup_candidate_weeks_pkey ON public.rollup_candidate_weeks USING btree ("workspaceId", "brandId", week, "providerConfigId", key, name);

CREATE UNIQUE INDEX rollup_candidates_pkey ON public.rollup_candidates USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId", key, name);

CREATE UNIQUE INDEX rollup_citations_pkey ON public.rollup_citations USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId", domain);

CREATE UNIQUE INDEX rollup_cited_page_day_totals_pkey ON public.rollup_cited_page_day_totals USING btree ("workspaceId", "brandId", day, url, domain);

CREATE UNIQUE INDEX rollup_cited_page_month_totals_pkey ON public.rollup_cited_page_month_totals USING btree ("workspaceId", "brandId", month, url, domain);

CREATE UNIQUE INDEX rollup_cited_page_prompt_days_pkey ON public.rollup_cited_page_prompt_days USING btree ("workspaceId", "brandId", day, "promptId", url, domain);

CREATE UNIQUE INDEX rollup_cited_page_prompt_months_pkey ON public.rollup_cited_page_prompt_months USING btree ("workspaceId", "brandId", month, "promptId", url, domain);

CREATE UNIQUE INDEX rollup_cited_page_prompt_weeks_pkey ON public.rollup_cited_page_prompt_weeks USING btree ("workspaceId", "brandId", week, "promptId", url, domain);

CREATE UNIQUE INDEX rollup_cited_page_week_totals_pkey ON public.rollup_cited_page_week_totals USING btree ("workspaceId", "brandId", week, url, domain);

CREATE UNIQUE INDEX rollup_cited_page_weeks_pkey ON public.rollup_cited_page_weeks USING btree ("workspaceId", "brandId", week, "providerConfigId", url, domain);

CREATE UNIQUE INDEX rollup_cited_pages_pkey ON public.rollup_cited_pages USING btree ("workspaceId", "brandId", day, "providerConfigId", url, domain);

CREATE UNIQUE INDEX rollup_domain_day_totals_pkey ON public.rollup_domain_day_totals USING btree ("workspaceId", "brandId", day, domain);

CREATE UNIQUE INDEX rollup_domain_weeks_pkey ON public.rollup_domain_weeks USING btree ("workspaceId", "brandId", week, "providerConfigId", domain);

CREATE UNIQUE INDEX rollup_domains_pkey ON public.rollup_domains USING btree ("workspaceId", "brandId", day, "providerConfigId", domain);

CREATE UNIQUE INDEX rollup_gap_source_prompts_pkey ON public.rollup_gap_source_prompts USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name);

CREATE INDEX "rollup_gap_source_prompts_workspaceId_brandId_domain_day_idx" ON public.rollup_gap_source_prompts USING btree ("workspaceId", "brandId", domain, day);

CREATE INDEX "rollup_gap_source_prompts_workspaceId_brandId_name_day_idx" ON public.rollup_gap_source_prompts USING btree ("workspaceId", "brandId", name, day);

CREATE UNIQUE INDEX rollup_gap_source_weeks_pkey ON public.rollup_gap_source_weeks USING btree ("workspaceId", "brandId", week, "providerConfigId", domain, name);

CREATE INDEX "rollup_gap_source_weeks_workspaceId_brandId_domain_week_idx" ON public.rollup_gap_source_weeks USING btree ("workspaceId", "brandId", domain, week);

CREATE INDEX "rollup_gap_source_weeks_workspaceId_brandId_name_week_idx" ON public.rollup_gap_source_weeks USING btree ("workspaceId", "brandId", name, week);

CREATE UNIQUE INDEX rollup_gap_sources_pkey ON public.rollup_gap_sources USING btree ("workspaceId", "brandId", day, "providerConfigId", domain, name);

CREATE INDEX "rollup_gap_sources_workspaceId_brandId_domain_day_idx" ON public.rollup_gap_sources USING btree ("workspaceId", "brandId", domain, day);

CREATE INDEX "rollup_gap_sources_workspaceId_brandId_name_day_idx" ON public.rollup_gap_sources USING btree ("workspaceId", "brandId", name, day);

CREATE UNIQUE INDEX rollup_mentions_pkey ON public.rollup_mentions USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId", entity);

CREATE UNIQUE INDEX rollup_own_pages_pkey ON public.rollup_own_pages USING btree ("workspaceId", "brandId", day, "providerConfigId", "promptId", url, domain);

CREATE UNIQUE INDEX rollup_tag_candidate_weeks_pkey ON public.rollup_tag_candidate_weeks USING btree ("workspaceId", "brandId", tag, week, key, name);

CREATE UNIQUE INDEX rollup_tag_candidates_pkey ON public.rollup_tag_candidates USING btree ("workspaceId", "brandId", tag, day, key, name);

CREATE UNIQUE INDEX rollup_tag_cited_page_months_pkey ON public.rollup_tag_cited_page_months USING btree ("workspaceId", "brandId", tag, month, url, domain);

CREATE UNIQUE INDEX rollup_tag_cited_page_weeks_pkey ON public.rollup_tag_cited_page_weeks USING btree ("workspaceId", "brandId", tag, week, url, domain);

CREATE UNIQUE INDEX rollup_tag_domain_day_totals_pkey ON public.rollup_tag_domain_day_totals USING btree ("workspaceId", "brandId", tag, day, domain);

CREATE UNIQUE INDEX rollup_tag_domain_weeks_pkey ON public.rollup_tag_domain_weeks USING btree ("workspaceId", "brandId", tag, week, "providerConfigId", domain);

CREATE UNIQUE INDEX rollup_tag_domains_pkey ON public.rollup_tag_domains USING btree ("workspaceId", "brandId", tag, day, "providerConfigId", domain);

CREATE UNIQUE INDEX rollup_tag_gap_source_weeks_pkey ON public.rollup_tag_gap_source_weeks USING btree ("workspaceId", "brandId", tag, week, "providerConfigId", domain, name);

CREATE INDEX "rollup_tag_gap_source_weeks_workspaceId_brandId_tag_domain__idx" ON public.rollup_tag_gap_source_weeks USING btree ("workspaceId", "brandId", tag, domain, week);

CREATE INDEX "rollup_tag_gap_source_weeks_workspaceId_brandId_tag_name_we_idx" ON public.rollup_tag_gap_source_weeks USING btree ("workspaceId", "brandId", tag, name, week);

CREATE UNIQUE INDEX rollup_tag_gap_sources_pkey ON public.rollup_tag_gap_sources USING btree ("workspaceId", "brandId", tag, day, "providerConfigId", domain, name);

CREATE INDEX "rollup_tag_gap_sources_workspaceId_brandId_tag_domain_day_idx" ON public.rollup_tag_gap_sources USING btree ("workspaceId", "brandId", tag, domain, day);

CREATE INDEX "rollup_tag_gap_sources_workspaceId_brandId_tag_name_day_idx" ON public.rollup_tag_gap_sources USING btree ("workspaceId", "brandId", tag, name, day);

CREATE INDEX "schedules_paused_nextRunAt_idx" ON public.schedules USING btree (paused, "nextRunAt");

CREATE UNIQUE INDEX schedules_pkey ON public.schedules USING btree (id);

CREATE UNIQUE INDEX "schedules_workspaceId_createKey_key" ON public.schedules USING btree ("workspaceId", "createKey");

CREATE INDEX "schedules_workspaceId_idx" ON public.schedules USING btree ("workspaceId");

CREATE INDEX "search_queries_captureId_idx" ON public.search_queries USING btree ("captureId");

CREATE UNIQUE INDEX search_queries_pkey ON public.search_queries USING btree (id);

CREATE UNIQUE INDEX sessions_pkey ON public.sessions USING btree (id);

CREATE UNIQUE INDEX sessions_token_key ON public.sessions USING btree (token);

CREATE INDEX "sessions_userId_idx" ON public.sessions USING btree ("userId");

CREATE UNIQUE INDEX setup_suggestions_pkey ON public.setup_suggestions USING btree (id);

CREATE INDEX "setup_suggestions_workspaceId_createdAt_idx" ON public.setup_suggestions USING btree ("workspaceId", "createdAt");

CREATE UNIQUE INDEX share_links_pkey ON public.share_links USING btree (id);

CREATE UNIQUE INDEX "share_links_tokenHash_key" ON public.share_links USING btree ("tokenHash");

CREATE INDEX "share_links_workspaceId_idx" ON public.share_links USING btree ("workspaceId");

CREATE UNIQUE INDEX site_readiness_blocked_pages_pkey ON public.site_readiness_blocked_pages USING btree ("workspaceId", domain, path);

CREATE UNIQUE INDEX site_readiness_pkey ON public.site_readiness USING btree ("workspaceId", domain);

CREATE UNIQUE INDEX source_category_overrides_pkey ON public.source_category_overrides USING btree ("workspaceId", domain);

CREATE UNIQUE INDEX traffic_crawls_daily_pkey ON public.traffic_crawls_daily USING btree ("workspaceId", day, domain, crawler, verification);

CREATE UNIQUE INDEX traffic_daily_pkey ON public.traffic_daily USING btree ("workspaceId", domain, path, day, crawler, verification) INCLUDE (hits);

CREATE INDEX traffic_hits_day_idx ON public.traffic_hits USING brin (day);

CREATE UNIQUE INDEX traffic_hits_pkey ON public.traffic_hits USING btree (id);

CREATE INDEX "traffic_imports_expiresAt_idx" ON public.traffic_imports USING btree ("expiresAt");

CREATE UNIQUE INDEX traffic_imports_pkey ON public.traffic_imports USING btree (id);

CREATE UNIQUE INDEX "traffic_imports_workspaceId_key_key" ON public.traffic_imports USING btree ("workspaceId", key);

CREATE UNIQUE INDEX traffic_pages_daily_pkey ON public.traffic_pages_daily USING btree ("workspaceId", day, domain, path);

CREATE UNIQUE INDEX traffic_pages_monthly_pkey ON public.traffic_pages_monthly USING btree ("workspaceId", month, domain, path);

CREATE UNIQUE INDEX traffic_pages_weekly_pkey ON public.traffic_pages_weekly USING btree ("workspaceId", week, domain, path);

CREATE UNIQUE INDEX traffic_site_keys_key_key ON public.traffic_site_keys USING btree (key);

CREATE UNIQUE INDEX traffic_site_keys_pkey ON public.traffic_site_keys USING btree ("workspaceId");

CREATE UNIQUE INDEX traffic_visits_assistants_daily_pkey ON public.traffic_visits_assistants_daily USING btree ("workspaceId", day, domain, assistant);

CREATE UNIQUE INDEX traffic_visits_daily_pkey ON public.traffic_visits_daily USING btree ("workspaceId", day, domain, path, assistant);

CREATE INDEX "traffic_visits_daily_workspaceId_domain_path_day_idx" ON public.traffic_visits_daily USING btree ("workspaceId", domain, path, day) INCLUDE (assistant, visits);

CREATE UNIQUE INDEX traffic_visits_pages_monthly_pkey ON public.traffic_visits_pages_monthly USING btree ("workspaceId", month, domain, path);

CREATE UNIQUE INDEX traffic_visits_pages_weekly_pkey ON public.traffic_visits_pages_weekly USING btree ("workspaceId", week, domain, path);

CREATE UNIQUE INDEX users_email_key ON public.users USING btree (email);

CREATE UNIQUE INDEX users_pkey ON public.users USING btree (id);

CREATE INDEX verifications_identifier_idx ON public.verifications USING btree (identifier);

CREATE UNIQUE INDEX verifications_pkey ON public.verifications USING btree (id);

CREATE UNIQUE INDEX worker_contact_pkey ON public.worker_contact USING btree (id);

CREATE INDEX "worker_heartbeats_leaseExpiresAt_idx" ON public.worker_heartbeats USING btree ("leaseExpiresAt");

CREATE UNIQUE INDEX worker_heartbeats_pkey ON public.worker_heartbeats USING btree ("workerId");

CREATE UNIQUE INDEX workspace_brandings_pkey ON public.workspace_brandings USING btree ("workspaceId");

CREATE UNIQUE INDEX workspaces_pkey ON public.workspaces USING btree (id);

CREATE UNIQUE INDEX workspaces_slug_key ON public.workspaces USING btree (slug);

CREATE VIEW beacon_in_flight AS
 SELECT a."workspaceId",
    c."connectionId",
    a."budgetPeriod" AS "periodStart",
    a."reservedMicros" AS micros
   FROM attempts a
     JOIN captures c ON c.id = a."captureId"
  WHERE a.outcome IS NULL AND a."budgetPeriod" IS NOT NULL
UNION ALL
 SELECT s."workspaceId",
    s."connectionId",
    s."budgetPeriod" AS "periodStart",
    s."reservedMicros" AS micros
   FROM setup_suggestions s
  WHERE s.status = ANY (ARRAY['queued'::"SetupSuggestionStatus", 'running'::"SetupSuggestionStatus"]);

CREATE OR REPLACE FUNCTION public.beacon_access_refusal(connection_id uuid, workspace_id uuid, model text)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    WHEN pc.id IS NULL THEN 'The connection of this capture no longer exists.'
    WHEN NOT pc.enabled THEN format('The operator disabled %s.', pc.name)
    WHEN NOT pc."grantedToAll" AND NOT EXISTS (
        SELECT 1 FROM connection_grants g WHERE g."connectionId" = pc.id AND g."workspaceId" = beacon_access_refusal.workspace_id)
      THEN format('The operator revoked this workspace''s access to %s.', pc.name)
    WHEN NOT (beacon_access_refusal.model = ANY(pc.models)) THEN format('The model "%s" is no longer allowed on %s.', beacon_access_refusal.model, pc.name)
  END
  FROM (SELECT 1) one LEFT JOIN provider_connections pc ON pc.id = beacon_access_refusal.connection_id
$function$;

CREATE OR REPLACE FUNCTION public.beacon_attempt_charge(cost bigint, reserved bigint)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN reserved IS NULL THEN cost ELSE least(cost, reserved) END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_breaker_count(connection_id uuid, model text, failed boolean, slow boolean, window_size integer)
 RETURNS boolean[]
 LANGUAGE sql
AS $function$
  UPDATE breaker_states SET
    "recentFailures" = (array_append("recentFailures", failed))[greatest(1, coalesce(array_length("recentFailures", 1), 0) + 2 - window_size):],
    "successCount" = "successCount" + (NOT failed)::int,
    "failureCount" = "failureCount" + failed::int,
    "slowCallCount" = "slowCallCount" + slow::int,
    "updatedAt" = now()
  WHERE "connectionId" = beacon_breaker_count.connection_id AND breaker_states.model = beacon_breaker_count.model AND status = 'closed' AND "forcedStatus" IS NULL
  RETURNING "recentFailures"
$function$;

CREATE OR REPLACE FUNCTION public.beacon_budget_add(workspace_id uuid, in_flight boolean, amount bigint)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
DECLARE
  month DATE := beacon_month();
  cap BIGINT := (SELECT w."monthlyBudgetMicros" FROM workspaces w WHERE w.id = workspace_id);
  others_charged BIGINT;
  others_in_use BIGINT;
  added DATE;
BEGIN
  IF cap IS NOT NULL THEN
    SELECT coalesce(sum(s."chargedMicros"), 0), coalesce(sum(CASE WHEN in_flight THEN s."inFlightMicros" ELSE s."reservedMicros" END), 0)
    INTO others_charged, others_in_use
    FROM budget_periods s WHERE s."workspaceId" = workspace_id AND s."periodStart" = month AND s.shard <> 0;
  END IF;
  INSERT INTO budget_periods AS b ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "updatedAt")
  SELECT workspace_id, month, 0, CASE WHEN in_flight THEN 0 ELSE amount END, CASE WHEN in_flight THEN amount ELSE 0 END, now()
  WHERE beacon_fits(others_charged, others_in_use, amount, cap)
  ON CONFLICT ("workspaceId", "periodStart", shard) DO UPDATE
    SET "reservedMicros" = b."reservedMicros" + EXCLUDED."reservedMicros", "inFlightMicros" = b."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()
    WHERE beacon_fits(b."chargedMicros" + others_charged, CASE WHEN in_flight THEN b."inFlightMicros" ELSE b."reservedMicros" END + others_in_use, amount, cap)
  RETURNING b."periodStart" INTO added;
  RETURN added;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_budget_wait_key(workspace_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('budget-wait:' || workspace_id, 0)
$function$;

CREATE OR REPLACE FUNCTION public.beacon_call_would_fit(workspace_id uuid, connection_id uuid, worst bigint)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce((
      SELECT beacon_fits(coalesce(sum(s."chargedMicros"), 0)::bigint, coalesce(sum(s."inFlightMicros"), 0)::bigint, worst, w."monthlyBudgetMicros")
      FROM workspaces w
      LEFT JOIN budget_periods s ON s."workspaceId" = w.id AND s."periodStart" = beacon_month()
      WHERE w.id = beacon_call_would_fit.workspace_id
      GROUP BY w."monthlyBudgetMicros"), true)
    AND coalesce((
      SELECT beacon_fits(coalesce(sum(s."chargedMicros"), 0)::bigint, coalesce(sum(s."inFlightMicros"), 0)::bigint, worst, g."monthlySpendLimitMicros")
      FROM connection_grants g
      LEFT JOIN grant_spend_periods s ON s."connectionId" = g."connectionId" AND s."workspaceId" = g."workspaceId"
        AND s."periodStart" = beacon_month()
      WHERE g."connectionId" = beacon_call_would_fit.connection_id AND g."workspaceId" = beacon_call_would_fit.workspace_id
      GROUP BY g."monthlySpendLimitMicros"),
      coalesce((SELECT pc."grantedToAll" FROM provider_connections pc WHERE pc.id = beacon_call_would_fit.connection_id), false))
$function$;

CREATE OR REPLACE FUNCTION public.beacon_capture_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW."changedXid" := pg_current_xact_id();
  RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_capture_prompt_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW."promptVersionId" IS NULL THEN
    SELECT v.id INTO NEW."promptVersionId" FROM prompt_versions v WHERE v."promptId" = NEW."promptId" ORDER BY v.number DESC LIMIT 1;
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_claim(capture_id uuid, connection_id uuid, model text, run_token uuid, worker_id text, probe_token uuid, worst_micros bigint, breaker_open_seconds integer, waiting "CaptureStatus"[], to_shard smallint, wake_limit integer, jobs jsonb, connection_version bigint)
 RETURNS TABLE(kind text, "attemptNumber" integer, "delayMs" double precision, "workspaceId" uuid, "checkId" uuid, reason text)
 LANGUAGE plpgsql
AS $function$
DECLARE
  cap RECORD;
  slot TEXT;
  attempt_number INTEGER;
  refusal TEXT;
BEGIN
  SELECT c.status, c."cancelRequestedAt" IS NOT NULL AS cancel_requested, ch."cancelRequestedAt" IS NOT NULL AS check_cancel_requested, c."checkId" AS check_id, c."workspaceId" AS workspace_id,
         c."connectionId" AS capture_connection, c.model AS capture_model, c."reservedMicros" AS hold, c."reservedPeriod" AS hold_period,
         b.status::text AS breaker_status, b."forcedStatus"::text AS forced_status, b."probeToken" AS breaker_probe,
         (extract(epoch FROM b."openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS open_for_ms
  INTO cap
  FROM captures c JOIN checks ch ON ch.id = c."checkId"
  LEFT JOIN breaker_states b ON b."connectionId" = beacon_claim.connection_id AND b.model = beacon_claim.model
  WHERE c.id = capture_id
  FOR UPDATE OF c;
  -- A waiting capture with a cancel request is an impossible state; the repair pass ends it. One
  -- whose check carries a cancel request waits for the check's cancel operation to end it
  -- (lib/checks/operations.ts): nothing starts once the cancel was asked for.
  IF NOT FOUND OR NOT (cap.status = ANY(waiting)) OR cap.cancel_requested OR cap.check_cancel_requested THEN
    RETURN QUERY SELECT 'not_runnable', NULL::int, NULL::float8, NULL::uuid, NULL::uuid, NULL::text; RETURN;
  END IF;
  -- The kill switches, before anything is taken (the breaker's wait included: a revoked capture fails now).
  PERFORM pg_advisory_xact_lock_shared(beacon_connection_access_key(cap.capture_connection));
  refusal := beacon_access_refusal(cap.capture_connection, cap.workspace_id, cap.capture_model);
  IF refusal IS NOT NULL THEN
    UPDATE captures c SET status = 'failed', "lastError" = refusal, "lastErrorClass" = 'permanent', "finishedAt" = now(), "runToken" = NULL,
      "nextAttemptAt" = NULL, "waitingFor" = NULL, "reservedMicros" = 0, "updatedAt" = now()
    WHERE c.id = capture_id;
    INSERT INTO events ("workspaceId", "checkId", "captureId", kind, data)
    VALUES (cap.workspace_id, cap.check_id, capture_id, 'capture_refused', jsonb_build_object('reason', refusal));
    IF beacon_hold_released(cap.hold, cap.hold_period) > 0 THEN
      PERFORM beacon_settle_ledgers(to_shard,
        ARRAY[cap.workspace_id], ARRAY[cap.hold_period], ARRAY[cap.hold], ARRAY[0::bigint], ARRAY[0::bigint],
        '{}'::uuid[], '{}'::uuid[], '{}'::date[], '{}'::bigint[], '{}'::bigint[]);
      PERFORM beacon_wake_budget_waiters(cap.workspace_id, wake_limit, jobs);
    END IF;
    RETURN QUERY SELECT 'refused', NULL::int, NULL::float8, cap.workspace_id, cap.check_id, refusal; RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM provider_connections pc WHERE pc.id = cap.capture_connection AND (extract(epoch FROM pc."updatedAt") * 1000)::bigint = connection_version) THEN
    RETURN QUERY SELECT 'stale', NULL::int, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text; RETURN;
  END IF;
  IF cap.breaker_status IS NOT NULL AND (cap.forced_status = 'open' OR (cap.forced_status IS NULL AND cap.breaker_status <> 'closed'
      AND NOT (probe_token IS NOT NULL AND cap.breaker_probe IS NOT DISTINCT FROM probe_token))) THEN
    RETURN QUERY SELECT 'breaker_open', NULL::int,
      greatest(1000, CASE WHEN cap.open_for_ms > 0 THEN cap.open_for_ms ELSE breaker_open_seconds * 1000.0 END)::float8, cap.workspace_id, NULL::uuid, NULL::text;
    RETURN;
  END IF;
  BEGIN
    slot := beacon_take_slot(connection_id, capture_id, cap.workspace_id, waiting);
    IF slot <> 'taken' THEN
      RETURN QUERY SELECT slot, NULL::int, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text; RETURN;
    END IF;
    UPDATE captures c SET status = 'running', "runToken" = run_token, "attemptCount" = c."attemptCount" + 1,
      "startedAt" = coalesce(c."startedAt", now()), "nextAttemptAt" = NULL, "waitingFor" = NULL, "updatedAt" = now()
    WHERE c.id = capture_id;
    -- clock_timestamp(), not now() (the transaction's start): the call starts once the slot is ours.
    INSERT INTO attempts (id, "workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "reservedMicros", "budgetPeriod")
    SELECT gen_random_uuid(), c."workspaceId", c.id, c."attemptCount", run_token, worker_id, clock_timestamp(), worst_micros,
           beacon_month()
    FROM captures c WHERE c.id = capture_id
    RETURNING number INTO attempt_number;
    -- The check's row is written by its first claim only.
    UPDATE checks SET status = 'running', "updatedAt" = now() WHERE id = cap.check_id AND status = 'queued';
    -- The budget last: its admission rows are written by every claim of the workspace.
    IF beacon_budget_add(cap.workspace_id, true, worst_micros) IS NULL OR beacon_grant_add(connection_id, cap.workspace_id, worst_micros) IS NULL THEN
      RAISE EXCEPTION 'no budget' USING ERRCODE = 'BCN01';
    END IF;
  EXCEPTION WHEN SQLSTATE 'BCN01' THEN
    RETURN QUERY SELECT 'no_budget', NULL::int, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text; RETURN;
  END;
  RETURN QUERY SELECT 'claimed', attempt_number, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_close_attempt(run_token uuid, outcome "AttemptOutcome", reason text, error_class "ErrorClass", http_status integer, request_id text, input_tokens integer, output_tokens integer, reasoning_tokens integer, cached_tokens integer, search_calls integer, cost_micros bigint, cost_is_estimate boolean, latency_ms integer)
 RETURNS TABLE("workspaceId" uuid, "connectionId" uuid, reserved bigint, period date, charged bigint)
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN QUERY
  WITH open AS (
    SELECT a.id, a."captureId", a."reservedMicros" AS reserved, coalesce(a."budgetPeriod", beacon_month()) AS period,
           (SELECT c."connectionId" FROM captures c WHERE c.id = a."captureId") AS "connectionId"
    FROM attempts a WHERE a."runToken" = run_token AND a.outcome IS NULL FOR UPDATE
  ), closed AS (
    UPDATE attempts a SET
      outcome = beacon_close_attempt.outcome, reason = beacon_close_attempt.reason, "errorClass" = error_class, "httpStatus" = http_status,
      "providerRequestId" = request_id, "inputTokens" = input_tokens, "outputTokens" = output_tokens, "reasoningTokens" = reasoning_tokens,
      "cachedTokens" = cached_tokens, "searchCalls" = search_calls, "costMicros" = beacon_attempt_charge(cost_micros, open.reserved),
      "costOverrunMicros" = cost_micros - beacon_attempt_charge(cost_micros, open.reserved), "costIsEstimate" = cost_is_estimate,
      "latencyMs" = latency_ms, "endedAt" = clock_timestamp(), "reservedMicros" = 0, "budgetPeriod" = open.period
    FROM open WHERE a.id = open.id
    RETURNING a."workspaceId", a."captureId", open."connectionId", open.reserved, open.period, a."costMicros" AS charged
  ), spent AS (
    UPDATE captures c SET "spentAttempts" = c."spentAttempts" + 1,
      "unknownAttempts" = c."unknownAttempts" + CASE WHEN beacon_close_attempt.outcome = 'unknown' THEN 1 ELSE 0 END,
      "paidAnswerLost" = c."paidAnswerLost" OR beacon_close_attempt.reason IS NOT DISTINCT FROM 'result_not_stored'
    FROM closed WHERE c.id = closed."captureId" AND beacon_close_attempt.outcome IN ('failed', 'unknown')
  )
  SELECT closed."workspaceId", closed."connectionId", closed.reserved, closed.period, closed.charged FROM closed;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_connection_access_key(connection_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('connection-access:' || connection_id, 0)
$function$;

CREATE OR REPLACE FUNCTION public.beacon_connection_slots()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "connection_slots" ("connectionId", "slot")
  SELECT NEW."id", s FROM generate_series(0, NEW."maxConcurrency" - 1) s
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_count_alert_delivery()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  counted TEXT;
BEGIN
  IF NEW.status <> OLD.status AND NEW.status::text IN ('delivered', 'failed', 'unknown') THEN
    counted := NEW.status::text;
  ELSIF NEW.status = 'pending' AND NEW."nextAttemptAt" IS NOT NULL AND NEW."nextAttemptAt" IS DISTINCT FROM OLD."nextAttemptAt" THEN
    counted := 'retried';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO metric_alert_delivery_counts ("channelKind", outcome, count)
  SELECT c.kind, counted, 1 FROM alert_channels c WHERE c.id = NEW."channelId"
  ON CONFLICT ("channelKind", outcome) DO UPDATE SET count = metric_alert_delivery_counts.count + 1;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_enqueue_captures(ids uuid[], delay_ms double precision, jobs jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  waiting "CaptureStatus"[] := ARRAY(SELECT jsonb_array_elements_text(jobs->'waiting'))::"CaptureStatus"[];
  added INTEGER;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN 0; END IF;
  -- Each (workspace, connection) pair's queue length is read once (MATERIALIZED: the rows of a
  -- check inserted in this transaction have no statistics, and a per-row plan was cubic).
  WITH targets AS MATERIALIZED (
    SELECT c.id, c."workspaceId", c."connectionId", c.sample, c."createdAt" FROM captures c
    WHERE c.id = ANY(ids) AND c.status = ANY(waiting)
  ), pairs AS MATERIALIZED (
    SELECT "workspaceId", "connectionId", count(*)::int AS enqueued FROM targets GROUP BY 1, 2
  ), queues AS MATERIALIZED (
    SELECT p."workspaceId", p."connectionId",
           (SELECT count(*)::int FROM captures o WHERE o."connectionId" = p."connectionId" AND o."workspaceId" = p."workspaceId"
              AND o.status = ANY(waiting)) - p.enqueued AS ahead
    FROM pairs p
  )
  SELECT count(*) INTO added FROM graphile_worker.add_jobs(ARRAY(
    SELECT ROW(jobs->>'task', json_build_object('captureId', t.id), NULL, now() + make_interval(secs => delay_ms / 1000),
               (jobs->>'maxAttempts')::int, (jobs->>'keyPrefix') || t.id,
               LEAST(32767, q.ahead + row_number() OVER (PARTITION BY t."workspaceId", t."connectionId" ORDER BY t.sample, t."createdAt", t.id) - 1)::int,
               ARRAY[(jobs->>'flagPrefix') || t."connectionId"])::graphile_worker.job_spec
    FROM targets t JOIN queues q ON q."workspaceId" = t."workspaceId" AND q."connectionId" = t."connectionId"
    ORDER BY t.sample, t."createdAt", t.id));
  RETURN added;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_fits(charged bigint, in_use bigint, amount bigint, cap bigint)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT cap IS NULL OR charged + in_use + amount <= cap
$function$;

CREATE OR REPLACE FUNCTION public.beacon_grant_add(connection_id uuid, workspace_id uuid, amount bigint)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
DECLARE
  month DATE := beacon_month();
  granted BOOLEAN;
  cap BIGINT;
  others_charged BIGINT;
  others_in_use BIGINT;
  added DATE;
BEGIN
  SELECT true, g."monthlySpendLimitMicros" INTO granted, cap FROM connection_grants g WHERE g."connectionId" = connection_id AND g."workspaceId" = workspace_id;
  IF granted IS NULL AND NOT coalesce((SELECT pc."grantedToAll" FROM provider_connections pc WHERE pc.id = connection_id), false) THEN
    RETURN NULL;
  END IF;
  IF cap IS NOT NULL THEN
    SELECT coalesce(sum(s."chargedMicros"), 0), coalesce(sum(s."inFlightMicros"), 0) INTO others_charged, others_in_use
    FROM grant_spend_periods s WHERE s."connectionId" = connection_id AND s."workspaceId" = workspace_id AND s."periodStart" = month AND s.shard <> 0;
  END IF;
  INSERT INTO grant_spend_periods AS g ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "updatedAt")
  SELECT connection_id, workspace_id, month, 0, amount, now()
  WHERE beacon_fits(others_charged, others_in_use, amount, cap)
  ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE
    SET "inFlightMicros" = g."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()
    WHERE beacon_fits(g."chargedMicros" + others_charged, g."inFlightMicros" + others_in_use, amount, cap)
  RETURNING g."periodStart" INTO added;
  RETURN added;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_hand_on_slots(connection_id uuid, freed integer, jobs jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  woken UUID[];
BEGIN
  WITH w AS (
    UPDATE captures c SET "nextAttemptAt" = now(), "updatedAt" = now()
    WHERE c.id IN (
      SELECT x.id FROM captures x
      WHERE x."connectionId" = connection_id AND x.status = 'postponed' AND x."waitingFor" = 'slot'
        AND x."cancelRequestedAt" IS NULL AND x."nextAttemptAt" > now()
      ORDER BY (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = x."connectionId" AND s."workspaceId" = x."workspaceId"), x."nextAttemptAt", x.id
      LIMIT freed FOR UPDATE SKIP LOCKED)
    RETURNING c.id
  )
  SELECT coalesce(array_agg(id), '{}') INTO woken FROM w;
  -- (At most freed + 1 free slots are counted: whether there were none before is all it asks.)
  IF cardinality(woken) < freed AND (
    SELECT count(*) FROM (
      SELECT 1 FROM connection_slots s JOIN provider_connections pc ON pc.id = s."connectionId"
      WHERE s."connectionId" = connection_id AND s."captureId" IS NULL AND s.slot < pc."maxConcurrency" LIMIT freed + 1) free) <= freed THEN
    PERFORM pg_notify('jobs:insert', json_build_object('count', freed - cardinality(woken))::text);
  END IF;
  PERFORM beacon_enqueue_captures(woken, 0, jobs);
  RETURN cardinality(woken);
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_hold_released(hold bigint, period date)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN hold > 0 AND period IS NOT NULL THEN hold ELSE 0 END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_jsonb_without(list jsonb, ids text[])
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT coalesce((SELECT jsonb_agg(e ORDER BY n) FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(list) = 'array' THEN list ELSE '[]'::jsonb END) WITH ORDINALITY AS x(e, n) WHERE e <> ALL(ids)), '[]'::jsonb)
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metric_add_attempts(d_provider text, d_running bigint, d_succeeded bigint, d_failed bigint, d_unknown bigint, d_cancelled bigint, d_lease_expired bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_attempt_counts" AS m ("provider", "shard", "running", "succeeded", "failed", "unknown", "cancelled", "leaseExpired")
  VALUES (d_provider, beacon_metric_shard(), d_running, d_succeeded, d_failed, d_unknown, d_cancelled, d_lease_expired)
  ON CONFLICT ("provider", "shard") DO UPDATE SET
    "running" = m."running" + EXCLUDED."running",
    "succeeded" = m."succeeded" + EXCLUDED."succeeded",
    "failed" = m."failed" + EXCLUDED."failed",
    "unknown" = m."unknown" + EXCLUDED."unknown",
    "cancelled" = m."cancelled" + EXCLUDED."cancelled",
    "leaseExpired" = m."leaseExpired" + EXCLUDED."leaseExpired"
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metric_add_captures(d_created bigint, d_accepted bigint, d_queued bigint, d_retry_wait bigint, d_postponed bigint, d_waiting_for_budget bigint, d_running bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_capture_counts" AS m ("shard", "created", "accepted", "queued", "retryWait", "postponed", "waitingForBudget", "running")
  VALUES (beacon_metric_shard(), d_created, d_accepted, d_queued, d_retry_wait, d_postponed, d_waiting_for_budget, d_running)
  ON CONFLICT ("shard") DO UPDATE SET
    "created" = m."created" + EXCLUDED."created",
    "accepted" = m."accepted" + EXCLUDED."accepted",
    "queued" = m."queued" + EXCLUDED."queued",
    "retryWait" = m."retryWait" + EXCLUDED."retryWait",
    "postponed" = m."postponed" + EXCLUDED."postponed",
    "waitingForBudget" = m."waitingForBudget" + EXCLUDED."waitingForBudget",
    "running" = m."running" + EXCLUDED."running"
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metric_add_hour(bucket timestamp without time zone, d_accepted bigint, d_cost_micros bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_accepted_hours" AS w ("slot", "shard", "startsAt", "accepted", "costMicros")
  SELECT (floor(extract(epoch FROM bucket) / 3600)::bigint % 32)::smallint, beacon_metric_shard(), bucket, d_accepted, d_cost_micros
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '26 hours' AND (now() AT TIME ZONE 'UTC') + interval '1 hour'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
    "accepted" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."accepted" + EXCLUDED."accepted" ELSE EXCLUDED."accepted" END,
    "costMicros" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."costMicros" + EXCLUDED."costMicros" ELSE EXCLUDED."costMicros" END,
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metric_add_minute(bucket timestamp without time zone, d_attempts bigint, d_retries bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_attempt_minutes" AS w ("slot", "shard", "startsAt", "attempts", "retries")
  SELECT (floor(extract(epoch FROM bucket) / 60)::bigint % 128)::smallint, beacon_metric_shard(), bucket, d_attempts, d_retries
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '2 hours' AND (now() AT TIME ZONE 'UTC') + interval '5 minutes'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
    "attempts" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."attempts" + EXCLUDED."attempts" ELSE EXCLUDED."attempts" END,
    "retries" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."retries" + EXCLUDED."retries" ELSE EXCLUDED."retries" END,
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metric_provider_of(capture_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT pc."name" FROM "captures" c JOIN "provider_configs" pc ON pc."id" = c."providerConfigId" WHERE c."id" = capture_id
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metric_shard()
 RETURNS smallint
 LANGUAGE sql
AS $function$
  SELECT (txid_current() % 16)::smallint
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_attempt_closed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
      (NEW.outcome IS NULL)::int - (OLD.outcome IS NULL)::int,
      (NEW.outcome IS NOT DISTINCT FROM 'succeeded')::int - (OLD.outcome IS NOT DISTINCT FROM 'succeeded')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'failed')::int - (OLD.outcome IS NOT DISTINCT FROM 'failed')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'unknown')::int - (OLD.outcome IS NOT DISTINCT FROM 'unknown')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'cancelled')::int - (OLD.outcome IS NOT DISTINCT FROM 'cancelled')::int,
      (NEW.reason IS NOT DISTINCT FROM 'lease_expired')::int - (OLD.reason IS NOT DISTINCT FROM 'lease_expired')::int);
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_attempt_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(OLD."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(provider, -1, 0, 0, 0, 0, 0);
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_attempt_started()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
      (NEW.outcome IS NULL)::int,
      (NEW.outcome IS NOT DISTINCT FROM 'succeeded')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'failed')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'unknown')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'cancelled')::int,
      (NEW.reason IS NOT DISTINCT FROM 'lease_expired')::int);
  END IF;
  PERFORM beacon_metric_add_minute(date_trunc('minute', NEW."startedAt"), 1, (NEW.number > 1)::int);
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_capture_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM beacon_metric_add_captures(
    0, 0,
    -(OLD.status = 'queued')::int,
    -(OLD.status = 'retry_wait')::int,
    -(OLD.status = 'postponed')::int,
    -(OLD.status = 'postponed' AND OLD."waitingFor" IS NOT DISTINCT FROM 'budget')::int,
    -(OLD.status = 'running')::int);
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_capture_moved()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM beacon_metric_add_captures(
    0,
    (NEW.status = 'succeeded')::int - (OLD.status = 'succeeded')::int,
    (NEW.status = 'queued')::int - (OLD.status = 'queued')::int,
    (NEW.status = 'retry_wait')::int - (OLD.status = 'retry_wait')::int,
    (NEW.status = 'postponed')::int - (OLD.status = 'postponed')::int,
    (NEW.status = 'postponed' AND NEW."waitingFor" IS NOT DISTINCT FROM 'budget')::int
      - (OLD.status = 'postponed' AND OLD."waitingFor" IS NOT DISTINCT FROM 'budget')::int,
    (NEW.status = 'running')::int - (OLD.status = 'running')::int);
  IF NEW.status = 'succeeded' AND OLD.status <> 'succeeded' THEN
    PERFORM beacon_metric_add_hour(date_trunc('hour', NEW."finishedAt"), 1, NEW."costMicros");
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_captures_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM beacon_metric_add_captures(
    count(*),
    count(*) FILTER (WHERE status = 'succeeded'),
    count(*) FILTER (WHERE status = 'queued'),
    count(*) FILTER (WHERE status = 'retry_wait'),
    count(*) FILTER (WHERE status = 'postponed'),
    count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget'),
    count(*) FILTER (WHERE status = 'running'))
  FROM inserted HAVING count(*) > 0;
  PERFORM beacon_metric_add_hour(date_trunc('hour', "finishedAt"), count(*), sum("costMicros")::bigint)
  FROM inserted
  WHERE status = 'succeeded' AND "finishedAt" >= (now() AT TIME ZONE 'UTC') - interval '26 hours'
  GROUP BY date_trunc('hour', "finishedAt");
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_metrics_repair_recorded()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "metric_repair_counts" AS m ("kind", "count") VALUES (coalesce(NEW.data->>'kind', 'unknown'), 1)
  ON CONFLICT ("kind") DO UPDATE SET "count" = m."count" + 1;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_month()
 RETURNS date
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date
$function$;

CREATE OR REPLACE FUNCTION public.beacon_prompt_tags_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('prompt-tags:' || n.id, 0))
  FROM new_prompts n JOIN old_prompts o ON o.id = n.id
  WHERE o.tags IS DISTINCT FROM n.tags
  ORDER BY n.id;
  -- rollup_tag_domains, from rollup_citations.
  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s."providerConfigId", s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations")
  FROM moves m JOIN rollup_citations s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domains r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s."providerConfigId", s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_domain_weeks, from rollup_citations.
  INSERT INTO rollup_tag_domain_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, date_trunc('week', s.day)::date, s."providerConfigId", s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations")
  FROM moves m JOIN rollup_citations s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, date_trunc('week', s.day)::date AS week, s."providerConfigId", s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_gap_sources, from rollup_gap_source_prompts.
  INSERT INTO rollup_tag_gap_sources AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s."providerConfigId", s.domain, s.name,
    sum(m.sign * s.answers),
    sum(m.sign * s."offSite")
  FROM moves m JOIN rollup_gap_source_prompts s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_sources r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s."providerConfigId", s.domain, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_gap_source_prompts s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.name = k.name
    AND r.answers = 0;
  -- rollup_tag_gap_source_weeks, from rollup_gap_source_prompts.
  INSERT INTO rollup_tag_gap_source_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, date_trunc('week', s.day)::date, s."providerConfigId", s.domain, s.name,
    sum(m.sign * s.answers),
    sum(m.sign * s."offSite")
  FROM moves m JOIN rollup_gap_source_prompts s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_source_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, date_trunc('week', s.day)::date AS week, s."providerConfigId", s.domain, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_gap_source_prompts s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.name = k.name
    AND r.answers = 0;
  -- rollup_tag_domain_day_totals, from rollup_citations.
  INSERT INTO rollup_tag_domain_day_totals AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations")
  FROM moves m JOIN rollup_citations s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_day_totals r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_cited_page_weeks, from rollup_cited_page_prompt_weeks.
  INSERT INTO rollup_tag_cited_page_weeks AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.week, s.url, s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations"),
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_cited_page_prompt_weeks s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.week, s.url, s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_cited_page_prompt_weeks s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r.url = k.url AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_cited_page_months, from rollup_cited_page_prompt_months.
  INSERT INTO rollup_tag_cited_page_months AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.month, s.url, s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations"),
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_cited_page_prompt_months s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_months r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.month, s.url, s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_cited_page_prompt_months s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.month = k.month AND r.url = k.url AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_candidates, from rollup_candidates.
  INSERT INTO rollup_tag_candidates AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s.key, s.name,
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_candidates s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidates r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s.key, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_candidates s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r.key = k.key AND r.name = k.name
    AND r.answers = 0;
  -- rollup_tag_candidate_weeks, from rollup_candidate_prompt_weeks.
  INSERT INTO rollup_tag_candidate_weeks AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.week, s.key, s.name,
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_candidate_prompt_weeks s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidate_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.week, s.key, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_candidate_prompt_weeks s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r.key = k.key AND r.name = k.name
    AND r.answers = 0;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_prompt_versions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO prompt_versions ("workspaceId", "promptId", number, text, country, city, language)
    SELECT n."workspaceId", n.id, 1, n.text, n.country, n.city, n.language FROM new_prompts n;
  ELSE
    INSERT INTO prompt_versions ("workspaceId", "promptId", number, text, country, city, language)
    SELECT n."workspaceId", n.id, coalesce((SELECT max(v.number) FROM prompt_versions v WHERE v."promptId" = n.id), 0) + 1,
           n.text, n.country, n.city, n.language
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    WHERE (o.text, o.country, o.city, o.language) IS DISTINCT FROM (n.text, n.country, n.city, n.language);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_reanalysis_run(workspace_id uuid, brand_id uuid, reanalysis_job jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  run_id uuid;
BEGIN
  SELECT r.id INTO run_id FROM analysis_runs r
  WHERE r."brandId" = beacon_reanalysis_run.brand_id AND r.status = 'queued'
  ORDER BY r."createdAt", r.id LIMIT 1
  FOR UPDATE;
  IF run_id IS NULL THEN
    INSERT INTO analysis_runs (id, "workspaceId", "brandId", total) VALUES (gen_random_uuid(), workspace_id, brand_id, 0)
    RETURNING id INTO run_id;
    PERFORM graphile_worker.add_job(reanalysis_job->>'task', json_build_object('analysisRunId', run_id),
      queue_name => (reanalysis_job->>'queuePrefix') || brand_id, max_attempts => (reanalysis_job->>'maxAttempts')::int);
  END IF;
  RETURN run_id;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_release_slot()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE "connection_slots" SET "captureId" = NULL, "workspaceId" = NULL, "takenAt" = NULL WHERE "captureId" = NEW."id";
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_rollup_apply_stage()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF to_regclass('pg_temp.rollup_answers_change') IS NOT NULL THEN
  INSERT INTO rollup_answers AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn" FROM pg_temp.rollup_answers_change s
  WHERE s."captures" <> 0 OR s."costMicros" <> 0 OR s."answers" <> 0 OR s."mentioned" <> 0 OR s."positionN" <> 0 OR s."positionSum" <> 0 OR s."positionSumSq" <> 0 OR s."position1" <> 0 OR s."position2" <> 0 OR s."position3" <> 0 OR s."position4" <> 0 OR s."position5Plus" <> 0 OR s."positive" <> 0 OR s."neutral" <> 0 OR s."negative" <> 0 OR s."sumY" <> 0 OR s."sumX" <> 0 OR s."sumYY" <> 0 OR s."sumXX" <> 0 OR s."sumXY" <> 0 OR s."citingOwn" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId") DO UPDATE SET
      "captures" = r."captures" + excluded."captures",
      "costMicros" = r."costMicros" + excluded."costMicros",
      "answers" = r."answers" + excluded."answers",
      "mentioned" = r."mentioned" + excluded."mentioned",
      "positionN" = r."positionN" + excluded."positionN",
      "positionSum" = r."positionSum" + excluded."positionSum",
      "positionSumSq" = r."positionSumSq" + excluded."positionSumSq",
      "position1" = r."position1" + excluded."position1",
      "position2" = r."position2" + excluded."position2",
      "position3" = r."position3" + excluded."position3",
      "position4" = r."position4" + excluded."position4",
      "position5Plus" = r."position5Plus" + excluded."position5Plus",
      "positive" = r."positive" + excluded."positive",
      "neutral" = r."neutral" + excluded."neutral",
      "negative" = r."negative" + excluded."negative",
      "sumY" = r."sumY" + excluded."sumY",
      "sumX" = r."sumX" + excluded."sumX",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXX" = r."sumXX" + excluded."sumXX",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "citingOwn" = r."citingOwn" + excluded."citingOwn";
  TRUNCATE pg_temp.rollup_answers_change;
  END IF;

  IF to_regclass('pg_temp.rollup_mentions_change') IS NOT NULL THEN
  INSERT INTO rollup_mentions AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead" FROM pg_temp.rollup_mentions_change s
  WHERE s."name" <> '' OR s."rows" <> 0 OR s."mentions" <> 0 OR s."sumYY" <> 0 OR s."sumXY" <> 0 OR s."ahead" <> 0 OR s."instead" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity") DO UPDATE SET
      "name" = CASE WHEN excluded."name" <> '' THEN excluded."name" ELSE r."name" END,
      "rows" = r."rows" + excluded."rows",
      "mentions" = r."mentions" + excluded."mentions",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "ahead" = r."ahead" + excluded."ahead",
      "instead" = r."instead" + excluded."instead";
  DELETE FROM rollup_mentions r USING pg_temp.rollup_mentions_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.entity = s.entity AND r.rows = 0 AND (s."name" <> '' OR s."rows" <> 0 OR s."mentions" <> 0 OR s."sumYY" <> 0 OR s."sumXY" <> 0 OR s."ahead" <> 0 OR s."instead" <> 0);
  TRUNCATE pg_temp.rollup_mentions_change;
  END IF;

  IF to_regclass('pg_temp.rollup_citations_change') IS NOT NULL THEN
  INSERT INTO rollup_citations AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_citations_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_citations r USING pg_temp.rollup_citations_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_citations_change;
  END IF;

  IF to_regclass('pg_temp.rollup_own_pages_change') IS NOT NULL THEN
  INSERT INTO rollup_own_pages AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt" FROM pg_temp.rollup_own_pages_change s
  WHERE s."citations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_own_pages r USING pg_temp.rollup_own_pages_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_own_pages_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_prompt_days_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_prompt_days AS r ("workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT "workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt" FROM pg_temp.rollup_cited_page_prompt_days_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_prompt_days r USING pg_temp.rollup_cited_page_prompt_days_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_prompt_days_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_prompt_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_prompt_weeks AS r ("workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_prompt_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_prompt_weeks r USING pg_temp.rollup_cited_page_prompt_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_prompt_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_prompt_months_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_prompt_months AS r ("workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_prompt_months_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "month", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_prompt_months r USING pg_temp.rollup_cited_page_prompt_months_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.month = s.month AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_prompt_months_change;
  END IF;

  IF to_regclass('pg_temp.rollup_gap_source_prompts_change') IS NOT NULL THEN
  INSERT INTO rollup_gap_source_prompts AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_gap_source_prompts_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_gap_source_prompts r USING pg_temp.rollup_gap_source_prompts_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_gap_source_prompts_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidates_change') IS NOT NULL THEN
  INSERT INTO rollup_candidates AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidates_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidates r USING pg_temp.rollup_candidates_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidates_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_prompt_days_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_prompt_days AS r ("workspaceId", "brandId", "day", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidate_prompt_days_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_prompt_days r USING pg_temp.rollup_candidate_prompt_days_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_prompt_days_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_prompt_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_prompt_weeks AS r ("workspaceId", "brandId", "week", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidate_prompt_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_prompt_weeks r USING pg_temp.rollup_candidate_prompt_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_prompt_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_prompt_provider_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_prompt_provider_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidate_prompt_provider_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_prompt_provider_weeks r USING pg_temp.rollup_candidate_prompt_provider_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_prompt_provider_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_domains_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_tag_domains_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domains r USING pg_temp.rollup_tag_domains_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_tag_domains_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_domain_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_domain_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_tag_domain_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_weeks r USING pg_temp.rollup_tag_domain_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_tag_domain_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_gap_sources_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_gap_sources AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_tag_gap_sources_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_sources r USING pg_temp.rollup_tag_gap_sources_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_tag_gap_sources_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_gap_source_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_gap_source_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_tag_gap_source_weeks_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_source_weeks r USING pg_temp.rollup_tag_gap_source_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_tag_gap_source_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_domains_change') IS NOT NULL THEN
  INSERT INTO rollup_domains AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_domains_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_domains r USING pg_temp.rollup_domains_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_domains_change;
  END IF;

  IF to_regclass('pg_temp.rollup_domain_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_domain_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_domain_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_domain_weeks r USING pg_temp.rollup_domain_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_domain_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_pages_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_pages AS r ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt" FROM pg_temp.rollup_cited_pages_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_pages r USING pg_temp.rollup_cited_pages_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_pages_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_weeks r USING pg_temp.rollup_cited_page_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_gap_sources_change') IS NOT NULL THEN
  INSERT INTO rollup_gap_sources AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_gap_sources_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_gap_sources r USING pg_temp.rollup_gap_sources_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_gap_sources_change;
  END IF;

  IF to_regclass('pg_temp.rollup_gap_source_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_gap_source_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_gap_source_weeks_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_gap_source_weeks r USING pg_temp.rollup_gap_source_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_gap_source_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_days_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_days AS r ("workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers" FROM pg_temp.rollup_candidate_days_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_days r USING pg_temp.rollup_candidate_days_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_days_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers" FROM pg_temp.rollup_candidate_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_weeks r USING pg_temp.rollup_candidate_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_domain_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_domain_day_totals AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations" FROM pg_temp.rollup_tag_domain_day_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_day_totals r USING pg_temp.rollup_tag_domain_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_tag_domain_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_cited_page_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_cited_page_weeks AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  SELECT "workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers" FROM pg_temp.rollup_tag_cited_page_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_weeks r USING pg_temp.rollup_tag_cited_page_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_cited_page_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_cited_page_months_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_cited_page_months AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  SELECT "workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers" FROM pg_temp.rollup_tag_cited_page_months_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_months r USING pg_temp.rollup_tag_cited_page_months_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.month = s.month AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_cited_page_months_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_candidates_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_candidates AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "tag", "day", "key", "name", "answers" FROM pg_temp.rollup_tag_candidates_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidates r USING pg_temp.rollup_tag_candidates_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_candidates_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_candidate_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_candidate_weeks AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "tag", "week", "key", "name", "answers" FROM pg_temp.rollup_tag_candidate_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidate_weeks r USING pg_temp.rollup_tag_candidate_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_candidate_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_domain_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_domain_day_totals AS r ("workspaceId", "brandId", "day", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "day", "domain", "citations", "ownCitations" FROM pg_temp.rollup_domain_day_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("workspaceId", "brandId", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_domain_day_totals r USING pg_temp.rollup_domain_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_domain_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_day_totals AS r ("workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_day_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_day_totals r USING pg_temp.rollup_cited_page_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_week_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_week_totals AS r ("workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_week_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_week_totals r USING pg_temp.rollup_cited_page_week_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_week_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_month_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_month_totals AS r ("workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_month_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_month_totals r USING pg_temp.rollup_cited_page_month_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.month = s.month AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_month_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_day_totals AS r ("workspaceId", "brandId", "day", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "key", "name", "answers" FROM pg_temp.rollup_candidate_day_totals_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_day_totals r USING pg_temp.rollup_candidate_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_week_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_week_totals AS r ("workspaceId", "brandId", "week", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "key", "name", "answers" FROM pg_temp.rollup_candidate_week_totals_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_week_totals r USING pg_temp.rollup_candidate_week_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_week_totals_change;
  END IF;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_rollup_attempt_ended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  wasted int := (NEW.outcome <> 'succeeded')::int;
  unknown int := (NEW.outcome = 'unknown')::int;
BEGIN
  INSERT INTO rollup_attempts AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "attempts", "costMicros", "wastedMicros",
    "wastedAttempts", "chargedWastedAttempts", "unknownAttempts", "unknownCostMicros", "estimatedCostMicros")
  SELECT NEW."workspaceId", c."brandId", NEW."startedAt"::date, c."providerConfigId", c."promptId", 1, NEW."costMicros", wasted * NEW."costMicros",
    wasted, wasted * (NEW."costMicros" > 0)::int, unknown, unknown * NEW."costMicros", CASE WHEN NEW."costIsEstimate" THEN NEW."costMicros" ELSE 0 END
  FROM captures c WHERE c.id = NEW."captureId"
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId") DO UPDATE SET
    "attempts" = r."attempts" + excluded."attempts",
    "costMicros" = r."costMicros" + excluded."costMicros",
    "wastedMicros" = r."wastedMicros" + excluded."wastedMicros",
    "wastedAttempts" = r."wastedAttempts" + excluded."wastedAttempts",
    "chargedWastedAttempts" = r."chargedWastedAttempts" + excluded."chargedWastedAttempts",
    "unknownAttempts" = r."unknownAttempts" + excluded."unknownAttempts",
    "unknownCostMicros" = r."unknownCostMicros" + excluded."unknownCostMicros",
    "estimatedCostMicros" = r."estimatedCostMicros" + excluded."estimatedCostMicros";
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_rollup_captures(ids uuid[], sign integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- The prompts' tags are read below (the rollups with a tag): shared with other writers of the
  -- rollups, exclusive for a change of the prompt's tags (beacon_prompt_tags_changed), taken
  -- before any rollup row, in id order.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('prompt-tags:' || p.id, 0))
  FROM (SELECT DISTINCT c."promptId" AS id FROM captures c WHERE c.id = ANY(ids) ORDER BY 1) p;
  INSERT INTO rollup_answers AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId", c."costMicros"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  per_capture AS (
    SELECT cap.*, b."captureId" IS NOT NULL AS analysed, coalesce(b.mentioned, false) AS mentioned, b.position, b.sentiment,
      coalesce(b.y, 0)::bigint AS y, coalesce(x.x, 0)::bigint AS x,
      EXISTS (SELECT 1 FROM citations ci WHERE ci."captureId" = cap.id AND ci."isOwnDomain" AND ci."citedInText") AS own
    FROM cap
    LEFT JOIN (
      SELECT m."captureId", bool_or(m.mentioned) AS mentioned,
        min(m.position) FILTER (WHERE m.mentioned) AS position,
        min(m.sentiment::text) FILTER (WHERE m.mentioned) AS sentiment,
        sum(m.count) AS y
      FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
      GROUP BY 1
    ) b ON b."captureId" = cap.id
    LEFT JOIN (SELECT m."captureId", sum(m.count) AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1) x ON x."captureId" = cap.id
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId",
    sign * count(*),
    sign * sum("costMicros"),
    sign * count(*) FILTER (WHERE analysed),
    sign * count(*) FILTER (WHERE analysed AND mentioned),
    sign * count(position) FILTER (WHERE analysed),
    sign * coalesce(sum(position) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(position::bigint * position) FILTER (WHERE analysed), 0),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 1),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 2),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 3),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 4),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position >= 5),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'positive'),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'neutral'),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'negative'),
    sign * coalesce(sum(y) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(y * y) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x * x) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x * y) FILTER (WHERE analysed), 0),
    sign * count(*) FILTER (WHERE own)
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId") DO UPDATE SET
      "captures" = r."captures" + excluded."captures",
      "costMicros" = r."costMicros" + excluded."costMicros",
      "answers" = r."answers" + excluded."answers",
      "mentioned" = r."mentioned" + excluded."mentioned",
      "positionN" = r."positionN" + excluded."positionN",
      "positionSum" = r."positionSum" + excluded."positionSum",
      "positionSumSq" = r."positionSumSq" + excluded."positionSumSq",
      "position1" = r."position1" + excluded."position1",
      "position2" = r."position2" + excluded."position2",
      "position3" = r."position3" + excluded."position3",
      "position4" = r."position4" + excluded."position4",
      "position5Plus" = r."position5Plus" + excluded."position5Plus",
      "positive" = r."positive" + excluded."positive",
      "neutral" = r."neutral" + excluded."neutral",
      "negative" = r."negative" + excluded."negative",
      "sumY" = r."sumY" + excluded."sumY",
      "sumX" = r."sumX" + excluded."sumX",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXX" = r."sumXX" + excluded."sumXX",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "citingOwn" = r."citingOwn" + excluded."citingOwn";

  INSERT INTO rollup_mentions AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  b AS (
    SELECT m."captureId", bool_or(m.mentioned) AS mentioned, min(m.position) FILTER (WHERE m.mentioned) AS position
    FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
    GROUP BY 1
  ),
  x AS (SELECT m."captureId", sum(m.count)::bigint AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1),
  per_capture AS (
    SELECT cap."workspaceId", cap."brandId", cap.day, cap."providerConfigId", cap."promptId",
      CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END AS entity,
      max(m.name) AS name,
      count(*) AS rows,
      coalesce(sum(m.count), 0)::bigint AS y,
      min(x.x) AS x,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND (NOT b.mentioned OR m.position < b.position)) AS ahead,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND NOT b.mentioned) AS instead
    FROM cap
    JOIN mentions m ON m."captureId" = cap.id
    JOIN x ON x."captureId" = cap.id
    LEFT JOIN b ON b."captureId" = cap.id
    GROUP BY cap.id, 1, 2, 3, 4, 5, 6
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", entity,
    CASE WHEN sign > 0 THEN max(name) ELSE '' END,
    sign * sum(rows),
    sign * sum(y),
    sign * sum(y * y),
    sign * sum(x * y),
    sign * sum(ahead),
    sign * sum(instead)
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity") DO UPDATE SET
      "name" = CASE WHEN excluded."name" <> '' THEN excluded."name" ELSE r."name" END,
      "rows" = r."rows" + excluded."rows",
      "mentions" = r."mentions" + excluded."mentions",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "ahead" = r."ahead" + excluded."ahead",
      "instead" = r."instead" + excluded."instead";

  INSERT INTO rollup_citations AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_own_pages AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_cited_page_prompt_days AS r ("workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_cited_page_prompt_weeks AS r ("workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_cited_page_prompt_months AS r ("workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('month', c."finishedAt")::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "month", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_gap_source_prompts AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";

  INSERT INTO rollup_candidates AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_candidate_prompt_days AS r ("workspaceId", "brandId", "day", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_candidate_prompt_weeks AS r ("workspaceId", "brandId", "week", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_candidate_prompt_provider_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_tag_domain_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_tag_gap_sources AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", t.tag, c."finishedAt"::date AS day, c."providerConfigId"
    FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", tag, day, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";

  INSERT INTO rollup_tag_gap_source_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date AS week, c."providerConfigId"
    FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", tag, week, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";

  INSERT INTO rollup_domains AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_domain_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_cited_pages AS r ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_cited_page_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_gap_sources AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";

  INSERT INTO rollup_gap_source_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date AS week, c."providerConfigId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", week, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";

  INSERT INTO rollup_candidate_days AS r ("workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_candidate_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_tag_domain_day_totals AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_tag_cited_page_weeks AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_tag_cited_page_months AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('month', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_tag_candidates AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_tag_candidate_weeks AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_domain_day_totals AS r ("workspaceId", "brandId", "day", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("workspaceId", "brandId", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";

  INSERT INTO rollup_cited_page_day_totals AS r ("workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_cited_page_week_totals AS r ("workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_cited_page_month_totals AS r ("workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('month', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");

  INSERT INTO rollup_candidate_day_totals AS r ("workspaceId", "brandId", "day", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";

  INSERT INTO rollup_candidate_week_totals AS r ("workspaceId", "brandId", "week", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_rollup_stage(ids uuid[], sign integer, sources text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- The prompts' tags are read below (the rollups with a tag): shared with other writers of the
  -- rollups, exclusive for a change of the prompt's tags (beacon_prompt_tags_changed), taken
  -- before any rollup row, in id order.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('prompt-tags:' || p.id, 0))
  FROM (SELECT DISTINCT c."promptId" AS id FROM captures c WHERE c.id = ANY(ids) ORDER BY 1) p;
  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_answers_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_answers_change (LIKE rollup_answers INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_answers_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId", c."costMicros"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  per_capture AS (
    SELECT cap.*, b."captureId" IS NOT NULL AS analysed, coalesce(b.mentioned, false) AS mentioned, b.position, b.sentiment,
      coalesce(b.y, 0)::bigint AS y, coalesce(x.x, 0)::bigint AS x,
      EXISTS (SELECT 1 FROM citations ci WHERE ci."captureId" = cap.id AND ci."isOwnDomain" AND ci."citedInText") AS own
    FROM cap
    LEFT JOIN (
      SELECT m."captureId", bool_or(m.mentioned) AS mentioned,
        min(m.position) FILTER (WHERE m.mentioned) AS position,
        min(m.sentiment::text) FILTER (WHERE m.mentioned) AS sentiment,
        sum(m.count) AS y
      FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
      GROUP BY 1
    ) b ON b."captureId" = cap.id
    LEFT JOIN (SELECT m."captureId", sum(m.count) AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1) x ON x."captureId" = cap.id
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId",
    sign * count(*),
    sign * sum("costMicros"),
    sign * count(*) FILTER (WHERE analysed),
    sign * count(*) FILTER (WHERE analysed AND mentioned),
    sign * count(position) FILTER (WHERE analysed),
    sign * coalesce(sum(position) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(position::bigint * position) FILTER (WHERE analysed), 0),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 1),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 2),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 3),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 4),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position >= 5),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'positive'),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'neutral'),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'negative'),
    sign * coalesce(sum(y) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(y * y) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x * x) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x * y) FILTER (WHERE analysed), 0),
    sign * count(*) FILTER (WHERE own)
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId") DO UPDATE SET
      "captures" = r."captures" + excluded."captures",
      "costMicros" = r."costMicros" + excluded."costMicros",
      "answers" = r."answers" + excluded."answers",
      "mentioned" = r."mentioned" + excluded."mentioned",
      "positionN" = r."positionN" + excluded."positionN",
      "positionSum" = r."positionSum" + excluded."positionSum",
      "positionSumSq" = r."positionSumSq" + excluded."positionSumSq",
      "position1" = r."position1" + excluded."position1",
      "position2" = r."position2" + excluded."position2",
      "position3" = r."position3" + excluded."position3",
      "position4" = r."position4" + excluded."position4",
      "position5Plus" = r."position5Plus" + excluded."position5Plus",
      "positive" = r."positive" + excluded."positive",
      "neutral" = r."neutral" + excluded."neutral",
      "negative" = r."negative" + excluded."negative",
      "sumY" = r."sumY" + excluded."sumY",
      "sumX" = r."sumX" + excluded."sumX",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXX" = r."sumXX" + excluded."sumXX",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "citingOwn" = r."citingOwn" + excluded."citingOwn";
  END IF;

  IF sources && ARRAY['mentions']::text[] THEN
  IF to_regclass('pg_temp.rollup_mentions_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_mentions_change (LIKE rollup_mentions INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_mentions_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  b AS (
    SELECT m."captureId", bool_or(m.mentioned) AS mentioned, min(m.position) FILTER (WHERE m.mentioned) AS position
    FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
    GROUP BY 1
  ),
  x AS (SELECT m."captureId", sum(m.count)::bigint AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1),
  per_capture AS (
    SELECT cap."workspaceId", cap."brandId", cap.day, cap."providerConfigId", cap."promptId",
      CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END AS entity,
      max(m.name) AS name,
      count(*) AS rows,
      coalesce(sum(m.count), 0)::bigint AS y,
      min(x.x) AS x,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND (NOT b.mentioned OR m.position < b.position)) AS ahead,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND NOT b.mentioned) AS instead
    FROM cap
    JOIN mentions m ON m."captureId" = cap.id
    JOIN x ON x."captureId" = cap.id
    LEFT JOIN b ON b."captureId" = cap.id
    GROUP BY cap.id, 1, 2, 3, 4, 5, 6
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", entity,
    CASE WHEN sign > 0 THEN max(name) ELSE '' END,
    sign * sum(rows),
    sign * sum(y),
    sign * sum(y * y),
    sign * sum(x * y),
    sign * sum(ahead),
    sign * sum(instead)
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity") DO UPDATE SET
      "name" = CASE WHEN excluded."name" <> '' THEN excluded."name" ELSE r."name" END,
      "rows" = r."rows" + excluded."rows",
      "mentions" = r."mentions" + excluded."mentions",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "ahead" = r."ahead" + excluded."ahead",
      "instead" = r."instead" + excluded."instead";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_citations_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_citations_change (LIKE rollup_citations INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_citations_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_own_pages_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_own_pages_change (LIKE rollup_own_pages INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_own_pages_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_prompt_days_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_prompt_days_change (LIKE rollup_cited_page_prompt_days INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_prompt_days_change AS r ("workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_prompt_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_prompt_weeks_change (LIKE rollup_cited_page_prompt_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_prompt_weeks_change AS r ("workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_prompt_months_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_prompt_months_change (LIKE rollup_cited_page_prompt_months INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "month", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_prompt_months_change AS r ("workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('month', c."finishedAt")::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "month", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_gap_source_prompts_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_gap_source_prompts_change (LIKE rollup_gap_source_prompts INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_gap_source_prompts_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidates_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidates_change (LIKE rollup_candidates INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidates_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_prompt_days_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_prompt_days_change (LIKE rollup_candidate_prompt_days INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_prompt_days_change AS r ("workspaceId", "brandId", "day", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_prompt_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_prompt_weeks_change (LIKE rollup_candidate_prompt_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_prompt_weeks_change AS r ("workspaceId", "brandId", "week", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_prompt_provider_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_prompt_provider_weeks_change (LIKE rollup_candidate_prompt_provider_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_prompt_provider_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_domains_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_domains_change (LIKE rollup_tag_domains INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_domains_change AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_domain_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_domain_weeks_change (LIKE rollup_tag_domain_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_domain_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_gap_sources_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_gap_sources_change (LIKE rollup_tag_gap_sources INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_gap_sources_change AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", t.tag, c."finishedAt"::date AS day, c."providerConfigId"
    FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", tag, day, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_gap_source_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_gap_source_weeks_change (LIKE rollup_tag_gap_source_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_gap_source_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date AS week, c."providerConfigId"
    FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", tag, week, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_domains_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_domains_change (LIKE rollup_domains INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_domains_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_domain_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_domain_weeks_change (LIKE rollup_domain_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_domain_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_pages_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_pages_change (LIKE rollup_cited_pages INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_pages_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_weeks_change (LIKE rollup_cited_page_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_gap_sources_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_gap_sources_change (LIKE rollup_gap_sources INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_gap_sources_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_gap_source_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_gap_source_weeks_change (LIKE rollup_gap_source_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_gap_source_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date AS week, c."providerConfigId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", week, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_days_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_days_change (LIKE rollup_candidate_days INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_days_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_weeks_change (LIKE rollup_candidate_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_domain_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_domain_day_totals_change (LIKE rollup_tag_domain_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_domain_day_totals_change AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_cited_page_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_cited_page_weeks_change (LIKE rollup_tag_cited_page_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_cited_page_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_cited_page_months_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_cited_page_months_change (LIKE rollup_tag_cited_page_months INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "month", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_cited_page_months_change AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('month', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_candidates_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_candidates_change (LIKE rollup_tag_candidates INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_candidates_change AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_candidate_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_candidate_weeks_change (LIKE rollup_tag_candidate_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_candidate_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_domain_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_domain_day_totals_change (LIKE rollup_domain_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_domain_day_totals_change AS r ("workspaceId", "brandId", "day", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("workspaceId", "brandId", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_day_totals_change (LIKE rollup_cited_page_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_day_totals_change AS r ("workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_week_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_week_totals_change (LIKE rollup_cited_page_week_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_week_totals_change AS r ("workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_month_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_month_totals_change (LIKE rollup_cited_page_month_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "month", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_month_totals_change AS r ("workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('month', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_day_totals_change (LIKE rollup_candidate_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_day_totals_change AS r ("workspaceId", "brandId", "day", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_week_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_week_totals_change (LIKE rollup_candidate_week_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_week_totals_change AS r ("workspaceId", "brandId", "week", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;
END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_settle_ledgers(to_shard smallint, b_workspace uuid[], b_period date[], b_reserved bigint[], b_in_flight bigint[], b_charged bigint[], g_connection uuid[], g_workspace uuid[], g_period date[], g_in_flight bigint[], g_charged bigint[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO budget_periods AS b ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "chargedMicros", "updatedAt")
  SELECT v.w, v.p, to_shard, -sum(v.r), -sum(v.f), sum(v.c), now()
  FROM unnest(b_workspace, b_period, b_reserved, b_in_flight, b_charged) AS v(w, p, r, f, c)
  WHERE v.w IS NOT NULL AND v.p IS NOT NULL
  GROUP BY v.w, v.p HAVING sum(v.r) <> 0 OR sum(v.f) <> 0 OR sum(v.c) <> 0 ORDER BY v.w, v.p
  ON CONFLICT ("workspaceId", "periodStart", shard) DO UPDATE SET
    "reservedMicros" = b."reservedMicros" + EXCLUDED."reservedMicros",
    "inFlightMicros" = b."inFlightMicros" + EXCLUDED."inFlightMicros",
    "chargedMicros" = b."chargedMicros" + EXCLUDED."chargedMicros",
    "updatedAt" = now();
  INSERT INTO grant_spend_periods AS g ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "chargedMicros", "updatedAt")
  SELECT v.k, v.w, v.p, to_shard, -sum(v.f), sum(v.c), now()
  FROM unnest(g_connection, g_workspace, g_period, g_in_flight, g_charged) AS v(k, w, p, f, c)
  WHERE v.k IS NOT NULL AND v.w IS NOT NULL AND v.p IS NOT NULL
  GROUP BY v.k, v.w, v.p HAVING sum(v.f) <> 0 OR sum(v.c) <> 0 ORDER BY v.k, v.w, v.p
  ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE SET
    "inFlightMicros" = g."inFlightMicros" + EXCLUDED."inFlightMicros",
    "chargedMicros" = g."chargedMicros" + EXCLUDED."chargedMicros",
    "updatedAt" = now();
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_slot_drain_key(connection_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('slot-drain:' || connection_id, 0)
$function$;

CREATE OR REPLACE FUNCTION public.beacon_slot_wait_key(connection_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('slot-wait:' || connection_id, 0)
$function$;

CREATE OR REPLACE FUNCTION public.beacon_succeed(capture_id uuid, run_token uuid, answer text, cost_micros bigint, latency_ms integer, analysis_truncated boolean, attempt jsonb, mentions jsonb, citations jsonb, search_queries jsonb, to_shard smallint, wake_limit integer, jobs jsonb, breaker jsonb, analysis_version integer, reanalysis_job jsonb, candidates jsonb)
 RETURNS TABLE(status text, "checkId" uuid, "workspaceId" uuid, "breakerWindow" boolean[])
 LANGUAGE plpgsql
AS $function$
DECLARE
  prior RECORD;
  closed RECORD;
  worst BIGINT;
  charged BIGINT;
  released BIGINT := 0;
  brand_version INTEGER;
  run_id UUID;
  counted BOOLEAN[];
  plan_mode TEXT;
BEGIN
  -- The guard of TRANSITIONS.succeed (lib/captures/states.ts, generated into beacon_transition_from):
  -- in one of its `from` statuses (running), with this run token.
  SELECT c.status, c."runToken", c."cancelRequestedAt" IS NOT NULL AS cancel_requested, c."checkId" AS check_id, c."brandId" AS brand_id,
         c."workspaceId" AS workspace_id, c."connectionId" AS connection_id, c."providerConfigId" AS provider_config_id, c."promptId" AS prompt_id, c."reservedMicros" AS hold, c."reservedPeriod" AS hold_period
  INTO prior FROM captures c WHERE c.id = capture_id FOR UPDATE;
  IF NOT FOUND OR NOT (prior.status = ANY(beacon_transition_from('succeed'))) OR prior."runToken" IS DISTINCT FROM run_token THEN RETURN; END IF;
  -- What the call is charged: its reserved worst case at most (as beacon_close_attempt charges its attempt, below).
  SELECT a."reservedMicros" INTO worst FROM attempts a WHERE a."runToken" = run_token AND a.outcome IS NULL;
  charged := beacon_attempt_charge(cost_micros, worst);
  UPDATE captures c SET status = 'succeeded', "answerText" = answer, "answerIsPartial" = false, "answerUpdatedAt" = now(),
    "costMicros" = charged, "latencyMs" = latency_ms,
    "lastError" = CASE WHEN prior.cancel_requested THEN 'Cancel requested after the answer had arrived: kept and analysed (it was paid for)' END,
    "lastErrorClass" = NULL, "finishedAt" = now(),
    "analyzedAt" = CASE WHEN analysis_version IS NOT NULL THEN now() END, "analysisVersion" = analysis_version,
    "analysisTruncated" = analysis_version IS NOT NULL AND analysis_truncated,
    -- It ended: its hold is given back (below, in the ledgers).
    "reservedMicros" = 0, "updatedAt" = now()
  WHERE c.id = capture_id;
  -- Leaving running gave the slot back (trigger): ordered against claims waiting for one (handOnSlots).
  PERFORM pg_advisory_xact_lock_shared(beacon_slot_wait_key(prior.connection_id));
  SELECT * INTO closed FROM beacon_close_attempt(run_token, 'succeeded', NULL, NULL, NULL, attempt->>'requestId',
    (attempt->>'inputTokens')::int, (attempt->>'outputTokens')::int, (attempt->>'reasoningTokens')::int,
    (attempt->>'cachedTokens')::int, (attempt->>'searchCalls')::int, cost_micros, false, latency_ms);
  IF cost_micros > charged THEN
    INSERT INTO events (id, "workspaceId", "checkId", "captureId", kind, data, "createdAt")
    VALUES (gen_random_uuid(), prior.workspace_id, prior.check_id, capture_id, 'attempt_cost_overrun',
            jsonb_build_object('runToken', run_token, 'reservedMicros', worst, 'actualMicros', cost_micros, 'chargedMicros', charged), now());
  END IF;
  IF prior.cancel_requested THEN
    INSERT INTO events (id, "workspaceId", "checkId", "captureId", kind, data, "createdAt")
    VALUES (gen_random_uuid(), prior.workspace_id, prior.check_id, capture_id, 'cancel_too_late', jsonb_build_object('runToken', run_token), now());
  END IF;

  -- The analysis, against the entities that exist now.
  SELECT b."analysisVersion" INTO brand_version FROM brands b WHERE b.id = prior.brand_id FOR SHARE;
  IF analysis_version IS NOT NULL THEN
    -- The competitors it names that still exist, held until the commit (a removal's delete
    -- waits for them; mentions have no foreign key to competitors); one removed during the call
    -- simply has no row, and the version says the analysis is stale.
    PERFORM 1 FROM competitors k
    WHERE k.id IN (SELECT (e->>'competitorId')::uuid FROM jsonb_array_elements(mentions) e) AND k."brandId" = prior.brand_id
    ORDER BY k.id FOR KEY SHARE;
    INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", "competitorId", name, mentioned, count, position, sentiment)
    SELECT prior.workspace_id, capture_id, m.kind, m."brandId", m."competitorId", m.name, m.mentioned, m.count, m.position, m.sentiment
    FROM jsonb_to_recordset(mentions) AS m(kind "EntityKind", "brandId" UUID, "competitorId" UUID, name TEXT, mentioned BOOLEAN, count INTEGER, position INTEGER, sentiment "Sentiment")
    WHERE (m."competitorId" IS NULL OR EXISTS (SELECT 1 FROM competitors k WHERE k.id = m."competitorId" AND k."brandId" = prior.brand_id))
      AND (m."brandId" IS NULL OR m."brandId" = prior.brand_id);
    INSERT INTO capture_candidates ("captureId", key, name, "workspaceId", "brandId", "finishedAt", "providerConfigId", "promptId")
    SELECT capture_id, x.key, x.name, prior.workspace_id, prior.brand_id, c."finishedAt", prior.provider_config_id, prior.prompt_id
    FROM jsonb_to_recordset(coalesce(candidates, '[]')) AS x(key TEXT, name TEXT), captures c WHERE c.id = capture_id
    ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO citations ("workspaceId", "captureId", url, title, domain, "isOwnDomain", "citedInText", position)
  SELECT prior.workspace_id, capture_id, x.url, x.title, x.domain, x."isOwnDomain", x."citedInText", x.position
  FROM jsonb_to_recordset(citations) AS x(url TEXT, title TEXT, domain TEXT, "isOwnDomain" BOOLEAN, "citedInText" BOOLEAN, position INTEGER);
  INSERT INTO search_queries ("workspaceId", "captureId", query, position)
  SELECT prior.workspace_id, capture_id, q.query, q.position
  FROM jsonb_to_recordset(search_queries) AS q(query TEXT, position INTEGER);
  -- Analysed with older inputs than the brand's now (an edit committed during the call), or not
  -- at all: a re-analysis will bring it up to date.
  IF analysis_version IS NULL OR analysis_version < brand_version THEN
    run_id := beacon_reanalysis_run(prior.workspace_id, prior.brand_id, reanalysis_job);
    UPDATE analysis_runs r SET total = r.total + 1 WHERE r.id = run_id;
  END IF;

  PERFORM beacon_hand_on_slots(prior.connection_id, 1, jobs);
  -- One capture: its rollup statements run on their generic plans. Planned with the values every
  -- time (the default mode chose custom plans here), planning them was about 16 of a success's 20
  -- ms; batch callers (lib/analytics/rollups.ts) force custom plans, which suit thousands of ids.
  plan_mode := current_setting('plan_cache_mode');
  PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  PERFORM beacon_rollup_captures(ARRAY[capture_id], 1);
  PERFORM set_config('plan_cache_mode', plan_mode, true);
  released := beacon_hold_released(prior.hold, prior.hold_period);
  IF closed."workspaceId" IS NOT NULL OR released > 0 THEN
    PERFORM beacon_settle_ledgers(to_shard,
      ARRAY[prior.workspace_id, closed."workspaceId"], ARRAY[prior.hold_period, closed.period], ARRAY[released, 0], ARRAY[0, closed.reserved], ARRAY[0, charged],
      ARRAY[closed."connectionId"], ARRAY[closed."workspaceId"], ARRAY[closed.period], ARRAY[closed.reserved], ARRAY[charged]);
  END IF;
  -- Money was freed (the hold, or the call's worst case beyond its cost): a capture waiting for budget may run now.
  IF released > 0 OR coalesce(closed.reserved, 0) > charged THEN PERFORM beacon_wake_budget_waiters(prior.workspace_id, wake_limit, jobs); END IF;
  -- The breaker's row is shared by every call of the connection's model: last, held only to the commit.
  IF breaker IS NOT NULL THEN
    counted := beacon_breaker_count(prior.connection_id, breaker->>'model', (breaker->>'failed')::boolean, (breaker->>'slow')::boolean, (breaker->>'windowSize')::int);
    IF counted IS NOT NULL THEN UPDATE attempts SET "breakerCounted" = true WHERE "runToken" = run_token; END IF;
  END IF;
  RETURN QUERY SELECT 'succeeded'::text, prior.check_id, prior.workspace_id, counted;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_take_slot(connection_id uuid, capture_id uuid, workspace_id uuid, waiting "CaptureStatus"[])
 RETURNS text
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
DECLARE
  cap INTEGER := (SELECT pc."maxConcurrency" FROM provider_connections pc WHERE pc.id = connection_id);
  mine INTEGER;
  holders INTEGER;
  taken INTEGER;
BEGIN
  IF cap IS NULL THEN RETURN 'full'; END IF;
  -- Another workspace has captures due on the connection: two index ranges around this
  -- workspace (captures_connectionId_status_workspaceId_idx), not a walk over its own backlog.
  -- A capture waiting for budget is not due, even once its recheck time has come: a workspace
  -- whose budget or grant limit is spent has nothing to run, and its backlog's jobs come last
  -- (priority), so counting them kept another workspace at half the connection for the month.
  -- When money frees up, its next claim waits for a slot and is due from then on.
  IF EXISTS (
       SELECT 1 FROM captures w
       WHERE w."connectionId" = connection_id AND w.status = ANY(waiting) AND w."workspaceId" < workspace_id AND w."cancelRequestedAt" IS NULL
         AND w."waitingFor" IS DISTINCT FROM 'budget' AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC'))
     OR EXISTS (
       SELECT 1 FROM captures w
       WHERE w."connectionId" = connection_id AND w.status = ANY(waiting) AND w."workspaceId" > workspace_id AND w."cancelRequestedAt" IS NULL
         AND w."waitingFor" IS DISTINCT FROM 'budget' AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC')) THEN
    SELECT count(*) FILTER (WHERE s."workspaceId" = workspace_id)::int, count(DISTINCT s."workspaceId") FILTER (WHERE s."workspaceId" <> workspace_id)::int
    INTO mine, holders
    FROM connection_slots s WHERE s."connectionId" = connection_id AND s."captureId" IS NOT NULL;
    -- The cap divided by the workspaces that hold slots, counting this one and, when only this
    -- one holds any, the one waiting.
    IF mine >= greatest(1, ceil(cap::numeric / (1 + greatest(1, holders)))) THEN RETURN 'share'; END IF;
  END IF;
  IF EXISTS (SELECT 1 FROM connection_slots s WHERE s."connectionId" = connection_id AND s.slot >= cap AND s."captureId" IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(beacon_slot_drain_key(connection_id));
    IF (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = connection_id AND s."captureId" IS NOT NULL) >= cap THEN RETURN 'full'; END IF;
  END IF;
  UPDATE connection_slots s SET "captureId" = capture_id, "workspaceId" = workspace_id, "takenAt" = now()
  WHERE (s."connectionId", s.slot) = (
    SELECT f."connectionId", f.slot FROM connection_slots f
    WHERE f."connectionId" = connection_id AND f."captureId" IS NULL AND f.slot < cap
    ORDER BY f.slot LIMIT 1 FOR UPDATE OF f SKIP LOCKED);
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN CASE WHEN taken > 0 THEN 'taken' ELSE 'full' END;
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_transition_from(transition text)
 RETURNS "CaptureStatus"[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE transition
    WHEN 'claim' THEN '{queued,retry_wait,postponed}'::"CaptureStatus"[]
    WHEN 'refuse' THEN '{queued,retry_wait,postponed}'::"CaptureStatus"[]
    WHEN 'postpone' THEN '{queued,retry_wait,postponed}'::"CaptureStatus"[]
    WHEN 'succeed' THEN '{running}'::"CaptureStatus"[]
    WHEN 'fail' THEN '{running}'::"CaptureStatus"[]
    WHEN 'expireLease' THEN '{running}'::"CaptureStatus"[]
    WHEN 'cancel' THEN '{queued,retry_wait,postponed,running}'::"CaptureStatus"[]
    WHEN 'adminRetry' THEN '{failed,cancelled}'::"CaptureStatus"[]
  END
$function$;

CREATE OR REPLACE FUNCTION public.beacon_unfinished_statuses()
 RETURNS "CaptureStatus"[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT '{queued,retry_wait,postponed,running}'::"CaptureStatus"[]
$function$;

CREATE OR REPLACE FUNCTION public.beacon_wake_budget_waiters(workspace_id uuid, wake_limit integer, jobs jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  waiting UUID[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(beacon_budget_wait_key(workspace_id));
  SELECT coalesce(array_agg(id), '{}') INTO waiting FROM (
    SELECT id FROM captures WHERE "workspaceId" = workspace_id AND status = 'postponed' AND "waitingFor" = 'budget'
    ORDER BY "nextAttemptAt", id LIMIT wake_limit) w;
  PERFORM beacon_enqueue_captures(waiting, 0, jobs);
  RETURN cardinality(waiting);
END $function$;

CREATE OR REPLACE FUNCTION public.beacon_workspace_traffic_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM traffic_hits WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_daily WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_crawls_daily WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_pages_daily WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_pages_weekly WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_pages_monthly WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  RETURN NULL;
END
$function$;

CREATE TRIGGER alert_deliveries_count AFTER UPDATE OF status, "nextAttemptAt" ON public.alert_deliveries FOR EACH ROW EXECUTE FUNCTION beacon_count_alert_delivery();

CREATE TRIGGER attempts_cost_rollup_closed AFTER UPDATE OF outcome ON public.attempts FOR EACH ROW WHEN (((old.outcome IS NULL) AND (new.outcome IS NOT NULL))) EXECUTE FUNCTION beacon_rollup_attempt_ended();

CREATE TRIGGER attempts_cost_rollup_inserted AFTER INSERT ON public.attempts FOR EACH ROW WHEN ((new.outcome IS NOT NULL)) EXECUTE FUNCTION beacon_rollup_attempt_ended();

CREATE CONSTRAINT TRIGGER attempts_metrics_closed AFTER UPDATE OF outcome, reason ON public.attempts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (((old.outcome IS DISTINCT FROM new.outcome) OR (old.reason IS DISTINCT FROM new.reason))) EXECUTE FUNCTION beacon_metrics_attempt_closed();

CREATE CONSTRAINT TRIGGER attempts_metrics_deleted AFTER DELETE ON public.attempts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((old.outcome IS NULL)) EXECUTE FUNCTION beacon_metrics_attempt_deleted();

CREATE CONSTRAINT TRIGGER attempts_metrics_started AFTER INSERT ON public.attempts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION beacon_metrics_attempt_started();

CREATE TRIGGER captures_changed_xid BEFORE UPDATE ON public.captures FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old."attemptCount" IS DISTINCT FROM new."attemptCount") OR (old."latencyMs" IS DISTINCT FROM new."latencyMs") OR (old."costMicros" IS DISTINCT FROM new."costMicros") OR (old."lastError" IS DISTINCT FROM new."lastError") OR (old."waitingFor" IS DISTINCT FROM new."waitingFor") OR (old."promptId" IS DISTINCT FROM new."promptId") OR (old."providerConfigId" IS DISTINCT FROM new."providerConfigId") OR (old.sample IS DISTINCT FROM new.sample) OR (old."checkId" IS DISTINCT FROM new."checkId") OR (old."analyzedAt" IS DISTINCT FROM new."analyzedAt"))) EXECUTE FUNCTION beacon_capture_changed();

CREATE CONSTRAINT TRIGGER captures_metrics_deleted AFTER DELETE ON public.captures DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((old.status = ANY (beacon_unfinished_statuses()))) EXECUTE FUNCTION beacon_metrics_capture_deleted();

CREATE TRIGGER captures_metrics_inserted AFTER INSERT ON public.captures REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION beacon_metrics_captures_inserted();

CREATE CONSTRAINT TRIGGER captures_metrics_moved AFTER UPDATE OF status, "waitingFor" ON public.captures DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old."waitingFor" IS DISTINCT FROM new."waitingFor"))) EXECUTE FUNCTION beacon_metrics_capture_moved();

CREATE TRIGGER captures_prompt_version BEFORE INSERT ON public.captures FOR EACH ROW EXECUTE FUNCTION beacon_capture_prompt_version();

CREATE TRIGGER captures_release_slot AFTER UPDATE OF status ON public.captures FOR EACH ROW WHEN (((old.status = 'running'::"CaptureStatus") AND (new.status <> 'running'::"CaptureStatus"))) EXECUTE FUNCTION beacon_release_slot();

CREATE CONSTRAINT TRIGGER events_metrics_repairs AFTER INSERT ON public.events DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((new.kind = 'lifecycle_repaired'::text)) EXECUTE FUNCTION beacon_metrics_repair_recorded();

CREATE TRIGGER prompts_tags_rollup AFTER UPDATE ON public.prompts REFERENCING OLD TABLE AS old_prompts NEW TABLE AS new_prompts FOR EACH STATEMENT EXECUTE FUNCTION beacon_prompt_tags_changed();

CREATE TRIGGER prompts_versions_changed AFTER UPDATE ON public.prompts REFERENCING OLD TABLE AS old_prompts NEW TABLE AS new_prompts FOR EACH STATEMENT EXECUTE FUNCTION beacon_prompt_versions();

CREATE TRIGGER prompts_versions_inserted AFTER INSERT ON public.prompts REFERENCING NEW TABLE AS new_prompts FOR EACH STATEMENT EXECUTE FUNCTION beacon_prompt_versions();

CREATE TRIGGER provider_connections_slots AFTER INSERT OR UPDATE OF "maxConcurrency" ON public.provider_connections FOR EACH ROW EXECUTE FUNCTION beacon_connection_slots();

CREATE TRIGGER workspaces_traffic_deleted AFTER DELETE ON public.workspaces REFERENCING OLD TABLE AS old_workspaces FOR EACH STATEMENT EXECUTE FUNCTION beacon_workspace_traffic_deleted();
