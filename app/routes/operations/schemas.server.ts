import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { emailMessages, maxMessage } from "../../../platform/lib/fields.ts";
import { opsLimits } from "./model.ts";
import { webhookMessages } from "../../../platform/contract/messages.ts";

/*
 * The forms of /operations. The webhook address's rules that need DNS (public addresses only) are
 * the platform's: its message comes back beside the field. Server-only.
 */

const url = z
  .string()
  .trim()
  .max(opsLimits.webhookUrl, maxMessage(opsLimits.webhookUrl))
  .refine((s) => /^https?:\/\//i.test(s), webhookMessages.scheme)
  .optional();

const email = z.string().trim().max(opsLimits.email, maxMessage(opsLimits.email)).pipe(z.email(emailMessages.invalid)).optional();

export const SettingsSchema = z.object({ intent: z.literal("settings"), webhook_url: url, email });

/** A redelivery without its delivery (a broken page). */
export const CHOOSE_DELIVERY = "Choose a delivery.";
export const DeliverySchema = z.object({ intent: z.literal("redeliver"), delivery_id: hiddenId(CHOOSE_DELIVERY) });

export const constraints = formConstraints({ settings: SettingsSchema });
