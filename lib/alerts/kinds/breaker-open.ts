import { z } from "zod";
import { providerConfigIds, providersField } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";

const params = z.object({
  minutes: z.coerce.number().int("Use a whole number of minutes").min(1, "At least 1 minute").max(1440, "At most 1,440 minutes (a day)").default(5),
  providerConfigIds,
});

export const breakerOpenKind = defineKind({
  name: "breaker_open",
  label: "A provider's breaker stayed open",
  scope: "workspace",
  params,
  judgedAfter: ["watch"],
  async judge({ rule, params, read }) {
    const only = params.providerConfigIds.length ? read.sql`AND pc.id = ANY(${params.providerConfigIds}::uuid[])` : read.empty;
    const open = await read.db().$queryRaw<{ connectionId: string; model: string; openedAt: Date; names: string[]; minutes: number }[]>`
      SELECT b."connectionId", b.model, b."openedAt", array_agg(pc.name ORDER BY pc.name) AS names,
        floor(extract(epoch FROM (now() AT TIME ZONE 'UTC') - b."openedAt") / 60)::int AS minutes
      FROM breaker_states b
      JOIN provider_configs pc ON pc."connectionId" = b."connectionId" AND pc.model = b.model AND pc."workspaceId" = ${rule.workspaceId}::uuid ${only}
      WHERE b.status IN ('open', 'half_open') AND b."forcedStatus" IS NULL
        AND b."openedAt" <= (now() AT TIME ZONE 'UTC') - make_interval(mins => ${params.minutes}::int)
      GROUP BY b."connectionId", b.model, b."openedAt"`;
    const findings = open.map<Finding>((b) => ({
      dedupeKey: `${b.connectionId}:${b.model}:${b.openedAt.toISOString()}`,
      title: `${b.names.join(", ")}: the breaker has been open for ${b.minutes} minutes`,
      summary: `Calls to ${b.names.join(", ")} (${b.model}) have been held back since ${b.openedAt.toISOString().replace("T", " ").slice(0, 16)} UTC because too many failed; captures wait until the provider answers again.`,
      facts: { connectionId: b.connectionId, model: b.model, openedAt: b.openedAt.toISOString(), minutes: b.minutes },
    }));
    return { findings, outcome: { status: "quiet", message: findings.length ? `${findings.length} breaker${findings.length === 1 ? "" : "s"} open over ${params.minutes} minutes.` : `No breaker has been open over ${params.minutes} minutes.` } };
  },
  describe: (p) => `Open over ${p.minutes} minutes`,
  form: [{ type: "number", key: "minutes", label: "Open for at least (minutes)", hint: "A breaker holds calls back while a provider keeps failing.", min: 1, max: 1440 }, providersField],
});
