import { runDelivery } from "@/lib/alerts/deliveries";
import { defineTask } from "@/worker/tasks/define";

/** One attempt at one alert delivery; retries are re-enqueued by runDelivery (lib/alerts/deliveries.ts). */
export const deliver_alert = defineTask("deliver_alert", async ({ deliveryId }, helpers) => {
  const result = await runDelivery(deliveryId);
  helpers.logger.info(`alert delivery ${deliveryId}: ${result}`);
});
