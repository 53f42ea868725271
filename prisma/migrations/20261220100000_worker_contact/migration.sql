-- When the workers last reached the database, and since when they have without a break: a lease
-- that ran out while every worker was cut off (a proxy or pgbouncer restart, a failover, a network
-- outage; the database itself stayed up) is counted from then, as one that ran out while the
-- server was down is counted from its start (lib/jobs/heartbeats.ts leaseOver). One row.
CREATE TABLE "worker_contact" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "lastContactAt" TIMESTAMP(3) NOT NULL,
    "reachableSince" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "worker_contact_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "worker_contact_one_row" CHECK ("id" = 1)
);
