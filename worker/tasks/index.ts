// The worker's task list: one handler per job of the catalog (lib/jobs/catalog.ts), keyed by its
// name. `satisfies` makes a catalog job without a handler a compile error.
import type { Task } from "graphile-worker";
import type { JobName } from "@/lib/jobs/catalog";
import { alert_digest } from "@/worker/tasks/alert-digest";
import { capture } from "@/worker/tasks/capture";
import { deliver_alert } from "@/worker/tasks/deliver-alert";
import { reanalyze } from "@/worker/tasks/reanalyze";
import { retention } from "@/worker/tasks/retention";
import { schedules } from "@/worker/tasks/schedules";

export const taskList = { capture, reanalyze, retention, schedules, deliver_alert, alert_digest } satisfies Record<JobName, Task>;
