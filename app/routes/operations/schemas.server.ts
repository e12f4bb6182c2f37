import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { DeliveryIdBody, SetAccountOpsBody } from "../../../platform/contract/operations.shapes.ts";

/*
 * The forms of /operations: each is its call's request schema (platform/contract/operations.shapes.ts).
 * The requests are strict objects and a form also posts its intent and CSRF token, so a form takes
 * the request's fields in a plain object. The webhook address's rules (https, public addresses
 * only: DNS) are the platform's: its message comes back beside the field. Server-only.
 */

// Either may be left empty (no webhook, no e-mail): '' by default, so the inputs carry no `required`.
export const SettingsSchema = requestForm(z.object({ webhook_url: SetAccountOpsBody.shape.webhook_url.default(""), email: SetAccountOpsBody.shape.email.default("") }));

/** A redelivery without its delivery (a broken page). */
export const CHOOSE_DELIVERY = "Choose a delivery.";
export const DeliverySchema = requestForm(z.object({ ...DeliveryIdBody.shape }));

export const constraints = formConstraints({ settings: SettingsSchema });
