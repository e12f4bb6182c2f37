import { z } from "zod";
import { ticketLimits } from "../../../platform/contract/support.ts";

/* The Support Center's form schemas (spec 3 §5), used by the route's action. Server-only. */

const required = (what: string) => z.string({ error: `${what} is required.` }).trim().min(1, `${what} is required.`);
const atMost = (max: number) => `Must be at most ${max} characters.`;

export const CreateTicketSchema = z.object({
  title: required("Subject").max(ticketLimits.title, atMost(ticketLimits.title)),
  description: required("Description").max(ticketLimits.description, atMost(ticketLimits.description)),
  priority: required("Priority"),
  category: required("Category"),
  device_id: z.string().trim().optional(),
});

export const ReplySchema = z.object({
  ticket_id: z.string({ error: "Ticket id is missing." }),
  correspondence: required("Reply").max(ticketLimits.correspondence, atMost(ticketLimits.correspondence)),
});

export const ResolveSchema = z.object({ ticket_id: z.string({ error: "Ticket id is missing." }) });
