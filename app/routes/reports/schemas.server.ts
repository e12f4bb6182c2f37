import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm, typedList } from "../../lib/form-fields.server.ts";
import { CreateReportScheduleBody, ScheduleIdBody, UpdateReportScheduleBody } from "../../../platform/contract/report-schedules.shapes.ts";
import { limits } from "../../../platform/lib/fields.ts";
import { fieldMessages } from "../../../platform/contract/messages.ts";
import { REMOVE_PHRASE, reportLimits } from "./model.ts";

/*
 * The Service Reports screen's form schemas, one per form, used by the action. Server-only. The
 * schedule form is create-report-schedule's / update-report-schedule's request
 * (platform/contract/report-schedules.shapes.ts): its words and limits, the zone checked as the
 * platform checks it. The form's own: the three content boxes (the request's `content` list) and
 * the recipients typed one a line (the request's list, each address the request's `email()`). The
 * row menu's Pause, Resume and Send now and the Delete dialog post the schedule's id, the request's
 * (ScheduleIdBody: remove_report_schedule's, send_report_now's; update_report_schedule's with `paused`).
 */

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");
const request = CreateReportScheduleBody.shape;

/** What the recipients' box may hold: the most addresses, each with its line break. */
const recipientsTyped = reportLimits.recipients * (limits.email + 2);

const scheduleFields = z.object({
  name: request.name,
  entity_name: request.entity_name,
  content_outages: checkbox,
  content_maintenance: checkbox,
  content_activation_tests: checkbox,
  cadence: request.cadence,
  time_zone: request.time_zone,
  hour: request.hour,
  recipients: typedList(request.recipients, recipientsTyped, { badItem: fieldMessages.emailNotValid }),
});

export const ScheduleSchema = requestForm(scheduleFields);
export type ScheduleValue = z.output<typeof ScheduleSchema>;

export const UpdateScheduleSchema = requestForm(scheduleFields.extend({ schedule_id: UpdateReportScheduleBody.shape.schedule_id }));
export const ScheduleIdSchema = requestForm(z.object(ScheduleIdBody.shape));
/** Delete: remove_report_schedule's request and typing the phrase (form-only). */
export const RemoveScheduleSchema = requestForm(confirmPhraseSchema(REMOVE_PHRASE, ScheduleIdBody.shape));

/** The platform's body of a schedule form. */
export const scheduleBody = ({ content_outages, content_maintenance, content_activation_tests, ...v }: ScheduleValue) => ({
  ...v,
  content: ([content_outages && "outages", content_maintenance && "maintenance", content_activation_tests && "activation_tests"] as const).filter((c) => c !== false),
});

export const constraints = formConstraints({ create: ScheduleSchema, update: UpdateScheduleSchema, remove: RemoveScheduleSchema });
