-- When a half-open probe is given up for dead: stamped when it is handed out, from the probe's own
-- timeout (lib/breaker/breaker.ts acquirePermission). Judged by each reader's configured timeout
-- instead, an operator's lowered probe timeout let a second probe start beside a live one.
ALTER TABLE "breaker_states" ADD COLUMN "probeUntil" TIMESTAMP(3);
