import type { SubmissionResult } from "@conform-to/react";
import { DialogActions, DialogGone, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ConformForm, HiddenFields, SelectField, SubmitButton, TextareaField, TextField, useIntentForm } from "../../components/forms.tsx";
import { hourText, reportCadenceLabels, reportCadences, reportContentLabels, reportLimits, SCHEDULE_GONE, WHOLE_ACCOUNT, type ReportSchedule } from "./model.ts";

/*
 * The Service Reports screen's dialogs (?dialog=create|update[&id=…]): one form for a schedule,
 * empty or filled in. Validated by the action (schemas.server.ts), with and without JavaScript.
 */

type Result = SubmissionResult<string[]> | null | undefined;

const cadenceOptions = reportCadences.map((c) => ({ value: c, label: reportCadenceLabels[c] }));
const hourOptions = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourText(h) }));

type Values = {
  name: string;
  entity_name: string;
  content_outages: string;
  content_maintenance: string;
  content_activation_tests: string;
  cadence: string;
  time_zone: string;
  hour: string;
  recipients: string;
};

const defaults = (s: ReportSchedule | null): Partial<Values> =>
  s
    ? {
        name: s.name,
        entity_name: s.entity_removed ? WHOLE_ACCOUNT : (s.entity_name ?? WHOLE_ACCOUNT),
        content_outages: s.content.includes("outages") ? "on" : "",
        content_maintenance: s.content.includes("maintenance") ? "on" : "",
        content_activation_tests: s.content.includes("activation_tests") ? "on" : "",
        cadence: s.cadence,
        time_zone: s.time_zone,
        hour: String(s.hour),
        recipients: s.recipients.map((r) => r.email).join("\n"),
      }
    : { cadence: "monthly", time_zone: "UTC", hour: "6", content_outages: "on", content_maintenance: "on", content_activation_tests: "on", entity_name: WHOLE_ACCOUNT };

function ScheduleForm({ intent, schedule, entityNames, lastResult }: { intent: "create" | "update"; schedule: ReportSchedule | null; entityNames: string[]; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<Values>(intent, { id: `${intent}-report-schedule`, lastResult, defaultValue: defaults(schedule) });
  return (
    <ConformForm form={form} intent={intent}>
      {schedule ? <HiddenFields fields={{ schedule_id: schedule.schedule_id }} /> : null}
      <TextField field={fields.name} label="Name" autoComplete="off" />
      <SelectField
        field={fields.entity_name}
        label="Scope"
        options={entityNames.map((n) => ({ value: n, label: `${n} and its children` }))}
        placeholder="Whole account"
        hint="The whole account, or one entity with every entity below it."
      />
      <fieldset className="fieldset">
        <legend className="fieldset-legend">Content</legend>
        <p className="text-sm">Availability and SLO per Internet NID, Metro NID and node are always in the report.</p>
        <CheckboxField field={fields.content_outages} label={reportContentLabels.outages} />
        <CheckboxField field={fields.content_maintenance} label={reportContentLabels.maintenance} />
        <CheckboxField field={fields.content_activation_tests} label={reportContentLabels.activation_tests} />
      </fieldset>
      <SelectField field={fields.cadence} label="Cadence" options={cadenceOptions} placeholder={null} hint="A calendar month, or a week from Monday to Sunday, in the time zone below." />
      <TextField field={fields.time_zone} label="Time zone" autoComplete="off" hint="An IANA name such as Europe/Berlin or America/New_York; UTC by default." />
      <SelectField field={fields.hour} label="Send at (local hour)" options={hourOptions} placeholder={null} />
      <TextareaField
        field={fields.recipients}
        label="Recipients"
        rows={3}
        hint={`E-mail addresses, one a line (at most ${reportLimits.recipients}). Each receives a link to confirm it first; nothing is sent to it before. They receive the report in Bcc.`}
      />
      <DialogActions>
        <SubmitButton pending={pending}>{intent === "create" ? "Create" : "Save"}</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function CreateDialog({ entityNames, lastResult }: { entityNames: string[]; lastResult: Result }) {
  return (
    <UrlDialog name="create" title="Add Report Schedule" size="lg">
      <ScheduleForm intent="create" schedule={null} entityNames={entityNames} lastResult={lastResult} />
    </UrlDialog>
  );
}

export function UpdateDialog({ schedule, entityNames, lastResult }: { schedule: ReportSchedule | null; entityNames: string[]; lastResult: Result }) {
  return (
    <UrlDialog name="update" title="Edit Report Schedule" size="lg">
      {schedule ? (
        <ScheduleForm key={schedule.schedule_id} intent="update" schedule={schedule} entityNames={entityNames} lastResult={lastResult} />
      ) : (
        <DialogGone>{SCHEDULE_GONE}</DialogGone>
      )}
    </UrlDialog>
  );
}
