// The task catalog: every graphile-worker task this worker runs, keyed by its identifier (the
// file name of its module in this folder). Jobs whose identifier is not listed here stay
// queued for a worker that knows them.
import type { TaskList } from "graphile-worker";
import { capture } from "@/worker/tasks/capture";
import { reanalyze } from "@/worker/tasks/reanalyze";
import { retention } from "@/worker/tasks/retention";
import { schedules } from "@/worker/tasks/schedules";

export const taskList: TaskList = { capture, reanalyze, retention, schedules };
