import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { clearableText, hiddenId, requiredText } from "../../lib/form-fields.server.ts";
import { REMOVE_PHRASE, reportCadences, reportLimits, reportMessages } from "./model.ts";

/*
 * The Service Reports screen's form schemas, one per form, used by the action. Server-only. The
 * platform checks the zone and the addresses again and says the same words.
 */

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");
const scheduleId = hiddenId("Report schedule id is missing.");

/** Addresses one a line (or comma-separated): each checked, at most reportLimits.recipients. */
const recipients = z
  .string()
  .max(4000)
  .optional()
  .transform((s) => [...new Set((s ?? "").split(/[\s,;]+/).map((e) => e.trim().toLowerCase()).filter(Boolean))])
  .superRefine((list, ctx) => {
    for (const e of list) if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)) ctx.addIssue({ code: "custom", message: `Not a valid e-mail address: ${e.slice(0, 60)}` });
    if (list.length > reportLimits.recipients) ctx.addIssue({ code: "custom", message: reportMessages.recipients });
  });

export const ScheduleSchema = z.object({
  name: requiredText("Enter a name.", reportLimits.name),
  entity_name: clearableText(reportLimits.name),
  content_outages: checkbox,
  content_maintenance: checkbox,
  content_activation_tests: checkbox,
  cadence: z.enum(reportCadences, { error: reportMessages.cadence }),
  time_zone: requiredText(reportMessages.timeZone, reportLimits.timeZone),
  hour: z.coerce.number({ error: reportMessages.hour }).int(reportMessages.hour).min(0, reportMessages.hour).max(23, reportMessages.hour),
  recipients,
});
export type ScheduleValue = z.output<typeof ScheduleSchema>;

export const UpdateScheduleSchema = ScheduleSchema.extend({ schedule_id: scheduleId });
export const ScheduleIdSchema = z.object({ schedule_id: scheduleId });
export const RemoveScheduleSchema = confirmPhraseSchema(REMOVE_PHRASE, { schedule_id: scheduleId });

/** The platform's body of a schedule form. */
export const scheduleBody = ({ content_outages, content_maintenance, content_activation_tests, ...v }: ScheduleValue) => ({
  ...v,
  content: ([content_outages && "outages", content_maintenance && "maintenance", content_activation_tests && "activation_tests"] as const).filter((c) => c !== false),
});

export const constraints = formConstraints({ create: ScheduleSchema, update: UpdateScheduleSchema });
