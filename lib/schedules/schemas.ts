// The schedule form and the schedule actions validate with these (the same schema in the browser
// for inline errors and on the server for the truth).
import { z } from "zod";
import { editCounter } from "@/lib/validation/edit-version";
import { MAX_SAMPLES, pickedProvidersSchema, promptSelectionSchema } from "@/lib/checks/schemas";
import { text } from "@/lib/validation/text";

export const MINUTES_PER_DAY = 24 * 60;

export const scheduleInputSchema = z
  .object({
    name: text({ max: 100, label: "A name" }).pipe(z.string().min(1, "Enter a name")),
    /** The creating form's key (one per dialog): a resubmit finds the schedule it made. Ignored by an edit. */
    createKey: z.uuid("Unknown form key").optional(),
    brandId: z.uuid("Pick a brand"),
    prompts: promptSelectionSchema,
    providerConfigIds: pickedProvidersSchema,
    samples: z.coerce.number().int("Use a whole number").min(1, "At least 1 sample").max(MAX_SAMPLES, `At most ${MAX_SAMPLES} samples`),
    cadence: z.enum(["daily", "weekly"], "Pick daily or weekly"),
    weekday: z.number().int().min(0, "Pick a day of the week").max(6, "Pick a day of the week").nullish(),
    minuteOfDay: z
      .number("Enter a time of day")
      .int("Enter a time of day")
      .min(0, "Enter a time between 00:00 and 23:59")
      .max(MINUTES_PER_DAY - 1, "Enter a time between 00:00 and 23:59"),
  })
  .superRefine((input, issue) => {
    if (input.cadence === "weekly" && (input.weekday === null || input.weekday === undefined)) {
      issue.addIssue({ code: "custom", path: ["weekday"], message: "Pick the day of the week a weekly schedule runs on" });
    }
  })
  // A daily schedule has no weekday, whatever the form sent.
  .transform((input) => ({
    ...input,
    providerConfigIds: [...new Set(input.providerConfigIds)],
    weekday: input.cadence === "weekly" ? (input.weekday ?? null) : null,
  }));

export type ScheduleInput = z.input<typeof scheduleInputSchema>;
export type ParsedScheduleInput = z.output<typeof scheduleInputSchema>;

export const scheduleIdSchema = z.object({ scheduleId: z.uuid("Unknown schedule") });

/** `version`: the schedule's editVersion as its form read it (lib/validation/edit-version.ts). */
export const updateScheduleSchema = z.object({ scheduleId: z.uuid("Unknown schedule"), schedule: scheduleInputSchema, version: editCounter });
