import { z } from "zod";
import { CreateTicketBody, ReplyBody, TicketIdBody } from "../../../platform/contract/support.shapes.ts";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";

/*
 * The Support Center's form schemas (spec 3 §5), used by the route's action: each is its call's
 * request schema (platform/contract/support.shapes.ts), so a form says the platform's words within
 * its limits. The requests are strict objects and a form also posts its intent and CSRF token, so
 * a form takes the request's fields (`.shape`) in a plain object. Server-only.
 */

export const CreateTicketSchema = requestForm(z.object({ ...CreateTicketBody.shape }));

export const ReplySchema = requestForm(z.object({ ...ReplyBody.shape }));

export const ResolveSchema = requestForm(z.object({ ...TicketIdBody.shape }));

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateTicketSchema, reply: ReplySchema });
