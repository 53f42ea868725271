import { runCheckOperation } from "@/lib/checks/operations";
import { defineTask } from "@/worker/tasks/define";

/** A person's cancel or retry of a whole check, asked for from the check page (lib/checks/operations.ts). */
export const check_operation = defineTask("check_operation", async ({ operationId }) => {
  await runCheckOperation(operationId);
});
