// The worker's task list: one handler per job of the catalog (lib/jobs/catalog.ts), keyed by its
// name. `satisfies` makes a catalog job without a handler a compile error.
import type { Task } from "graphile-worker";
import type { JobName } from "@/lib/jobs/catalog";
import { alert_digest } from "@/worker/tasks/alert_digest";
import { alerts_daily } from "@/worker/tasks/alerts_daily";
import { alerts_watch } from "@/worker/tasks/alerts_watch";
import { capture } from "@/worker/tasks/capture";
import { check_operation } from "@/worker/tasks/check_operation";
import { deliver_alert } from "@/worker/tasks/deliver_alert";
import { evaluate_alerts } from "@/worker/tasks/evaluate_alerts";
import { readiness_daily } from "@/worker/tasks/readiness_daily";
import { reanalyze } from "@/worker/tasks/reanalyze";
import { retention } from "@/worker/tasks/retention";
import { schedules } from "@/worker/tasks/schedules";
import { setup_suggestions } from "@/worker/tasks/setup_suggestions";
import { site_readiness } from "@/worker/tasks/site_readiness";

export const taskList = {
  capture,
  check_operation,
  reanalyze,
  retention,
  schedules,
  setup_suggestions,
  evaluate_alerts,
  alerts_daily,
  alerts_watch,
  deliver_alert,
  alert_digest,
  site_readiness,
  readiness_daily,
} satisfies Record<JobName, Task>;
