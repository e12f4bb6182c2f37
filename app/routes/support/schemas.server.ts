import { z } from "zod";
import { ticketLimits } from "../../../platform/contract/support.ts";
import { hiddenId, requiredText } from "../../lib/form-fields.server.ts";
import { formConstraints } from "../../components/constraints.server.ts";

/* The Support Center's form schemas (spec 3 §5), used by the route's action. Server-only. */

const required = (what: string, max: number = ticketLimits.title) => requiredText(`${what} is required.`, max);
const ticketId = hiddenId("Ticket id is missing.");

export const CreateTicketSchema = z.object({
  title: required("Subject", ticketLimits.title),
  description: required("Description", ticketLimits.description),
  priority: required("Priority"),
  category: required("Category"),
  device_id: z.string().trim().optional(),
});

export const ReplySchema = z.object({
  ticket_id: ticketId,
  correspondence: required("Reply", ticketLimits.correspondence),
});

export const ResolveSchema = z.object({ ticket_id: ticketId });

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateTicketSchema, reply: ReplySchema });
