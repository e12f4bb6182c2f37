import type { CreateTicketSchema, ReplySchema } from "./schemas.server.ts";
import type { z } from "zod";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SelectField, SubmitButton, TextareaField, TextField, useIntentForm } from "../../components/forms.tsx";
import { useIsPending } from "../../components/hooks.ts";
import { CLOSE_TITLE, closeText, ticketLimits, type DeviceNames, type Ticket } from "./model.ts";

/*
 * The Support Center's dialogs, opened by URL: ?dialog=create, ?dialog=reply&id={ticket},
 * ?dialog=resolve&id={ticket}. The action validates (schemas.server.ts); no validation in the browser.
 */

type Result = SubmissionResult<string[]> | null | undefined;

const options = (values: string[]) => values.map((v) => ({ value: v, label: v }));

export function CreateTicketDialog({
  priorities,
  categories,
  devices,
  lastResult,
}: {
  priorities: string[];
  categories: string[];
  devices: DeviceNames;
  lastResult: Result;
}) {
  const { form, fields, pending } = useIntentForm<z.input<typeof CreateTicketSchema>>("create", { id: "create-ticket", lastResult });
  const deviceOptions = [...devices.cpe, ...devices.metro].map((d) => ({ value: d.id, label: `${d.name} (${d.id})` }));
  return (
    <UrlDialog name="create" title="Create Ticket" size="lg">
      <ConformForm form={form} intent="create">
        <TextField field={fields.title} label="Subject" autoComplete="off" hint={`Up to ${ticketLimits.title} characters.`} />
        <TextareaField field={fields.description} label="Description" rows={6} hint={`Up to ${ticketLimits.description} characters.`} />
        <div className="grid gap-x-4 sm:grid-cols-2">
          <SelectField field={fields.priority} label="Priority" options={options(priorities)} placeholder="Select a priority" />
          <SelectField field={fields.category} label="Category" options={options(categories)} placeholder="Select a category" />
        </div>
        {deviceOptions.length > 0 ? <SelectField field={fields.device_id} label="Device" options={deviceOptions} placeholder="None" /> : null}
        <DialogActions>
          <SubmitButton pending={pending}>Create Ticket</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

export function ReplyDialog({ ticket, lastResult }: { ticket: Ticket | null; lastResult: Result }) {
  const { form, fields, pending } = useIntentForm<z.input<typeof ReplySchema>>("reply", { id: "reply-ticket", lastResult });
  return (
    <UrlDialog name="reply" title="Reply" size="lg">
      {ticket && ticket.state !== "Closed" ? (
        <ConformForm form={form} intent="reply">
          <input type="hidden" name="ticket_id" value={ticket.ticket_id} />
          <p className="mb-2 wrap-anywhere">
            Ticket <strong>{ticket.ticket_id}</strong>: {ticket.title}
          </p>
          <TextareaField field={fields.correspondence} label="Reply" rows={6} hint={`Up to ${ticketLimits.correspondence} characters.`} />
          <DialogActions>
            <SubmitButton pending={pending}>Send Reply</SubmitButton>
          </DialogActions>
        </ConformForm>
      ) : (
        <>
          <p>{ticket ? "This ticket is closed: it takes no more replies." : "This ticket no longer exists."}</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
}

export function CloseTicketDialog({ ticket }: { ticket: Ticket | null }) {
  const pending = useIsPending({ intent: "resolve" });
  return (
    <UrlDialog name="resolve" title={CLOSE_TITLE}>
      {ticket && ticket.state !== "Closed" ? (
        <Form method="post" preventScrollReset>
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="resolve" />
          <input type="hidden" name="ticket_id" value={ticket.ticket_id} />
          <p className="wrap-anywhere">{closeText(ticket.ticket_id)}</p>
          <DialogActions>
            <SubmitButton className="btn btn-error" pending={pending}>
              Close the ticket
            </SubmitButton>
          </DialogActions>
        </Form>
      ) : (
        <>
          <p>{ticket ? "This ticket is already closed." : "This ticket no longer exists."}</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
}
