import { z } from "@hono/zod-openapi";
import { expects, idField, limits, maxMessage, plainText, text } from "../lib/fields.ts";
import { fieldMessages, supportMessages } from "./messages.ts";
import { apiLogCountCap, ticketCategories, ticketLimits, ticketPriorities } from "./support.ts";
import { changedFields, createdOf, isoTime, pageOf } from "./common.shapes.ts";

/** A ticket as the list and detail calls answer it (spec 3 §3 Ticket, without the correspondence). */
export const Ticket = z
  .object({
    ticket_id: z.string().openapi({ example: "tkt-5q2w8e1r4t6y" }),
    title: z.string().openapi({ description: "The subject" }),
    category: z.string(),
    priority: z.string(),
    state: z.string().openapi({ description: "Open, or Closed once resolved (irreversible)" }),
    account_id: z.string(),
    device_id: z.string().nullable(),
    entity_id: z.string().nullable().openapi({ description: "The entity of the IAM user who opened it (null for the account)" }),
    created_by: z.string(),
    ...changedFields,
  })
  .openapi("Ticket");
export type Ticket = z.infer<typeof Ticket>;

/** One entry of a ticket's correspondence (the description is the first, oldest one). */
export const Correspondence = z
  .object({
    correspondence_id: z.string(),
    correspondence: z.string().openapi({ description: "The text as typed (line breaks kept)" }),
    created_by: z.string(),
    created_at: isoTime(),
  })
  .openapi("Correspondence");
export type Correspondence = z.infer<typeof Correspondence>;

const device = z.object({ name: z.string(), id: z.string() });

/** GET dashboard_get_device_names. */
export const DeviceNames = z.object({ cpe: z.array(device), metro: z.array(device) }).openapi("DeviceNames");
export type DeviceNames = z.infer<typeof DeviceNames>;

export const TicketPage = pageOf(Ticket, "TicketPage");
export const TicketCreated = createdOf("TicketCreated", "ticket_id");

/** Any JSON value (what a call was sent). */
const json = () => z.unknown().openapi({ type: ["object", "array", "string", "number", "boolean", "null"] });

/** One row of the API log (spec 3 §3 Api log), with its id. */
export const ApiLogEntry = z
  .object({
    id: z.string(),
    created_at: isoTime(),
    iam_user_username: z.string().nullable(),
    account_username: z.string(),
    url_path: z.string().openapi({ description: "The request path without the API version prefix (the Command)" }),
    request_body: json().openapi({ description: "The JSON body with every secret replaced by ***" }),
    query_parameters: json(),
    account_id: z.string(),
    iam_user_id: z.string().nullable(),
    status: z.number().int().openapi({ description: "The call's answer: 2xx a change made, 4xx refused (nothing changed), 5xx failed" }),
  })
  .openapi("ApiLogEntry");
export type ApiLogEntry = z.infer<typeof ApiLogEntry>;

/** One page of the change log; its total is counted up to apiLogCountCap when filtered. */
export const ApiLogPage = z
  .object({
    items: z.array(ApiLogEntry),
    total: z.number().int().openapi({ description: "Rows the search and filters select" }),
    total_capped: z
      .boolean()
      .openapi({ description: `True when the filters select more than ${apiLogCountCap} rows: total is then ${apiLogCountCap}, not counted further` }),
  })
  .openapi("ApiLogPage");
export type ApiLogPage = z.infer<typeof ApiLogPage>;

// The calls' requests: the platform validates with them and the console's Support Center forms
// are these schemas (app/routes/support/schemas.server.ts).

// One message a value: an empty choice is "required", not also "must be one of" (issue 63 item 26).
const choice = (required: string, what: string, values: readonly string[]) =>
  z
    .string({ error: expects("a valid string") })
    .superRefine((v, ctx) => {
      if (v === "") ctx.addIssue({ code: "custom", message: required });
      else if (!values.includes(v)) ctx.addIssue({ code: "custom", message: `${what} must be one of: ${values.join(", ")}` });
    })
    .openapi({ enum: [...values] });

/** Non-blank text of at most `max` characters, line breaks allowed. */
const message = (required: string, max: number) => text(max, { min: 1, multiline: true, minMessage: required });

export const CreateTicketBody = z
  .strictObject({
    title: text(ticketLimits.title, { min: 1, minMessage: supportMessages.subjectRequired }).openapi({ description: "The subject" }),
    description: message(fieldMessages.descriptionRequired, ticketLimits.description),
    priority: choice(supportMessages.priorityRequired, "Priority", ticketPriorities).openapi({ description: "One of GET get_ticket_priority" }),
    category: choice(supportMessages.categoryRequired, "Category", ticketCategories).openapi({ description: "One of GET get_ticket_category" }),
    device_id: z
      .string({ error: expects("a valid string") })
      .max(limits.id, maxMessage(limits.id))
      .apply(plainText)
      .optional()
      .openapi({ description: "One of GET dashboard_get_device_names (unknown: 404); '' or absent: none" }),
  })
  .openapi("CreateTicket");

export const TicketIdBody = z.strictObject({ ticket_id: idField("Ticket id") }).openapi("TicketId");

export const ReplyBody = z
  .strictObject({ ticket_id: idField("Ticket id"), correspondence: message(supportMessages.replyRequired, ticketLimits.correspondence) })
  .openapi("AddCorrespondence");
