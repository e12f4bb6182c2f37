import { z } from "@hono/zod-openapi";
import { emailMessages, idField, isEmail, text } from "../lib/fields.ts";
import { isoTime, pageOf } from "./common.shapes.ts";
import { opsLimits } from "./operations.ts";

/** The account's operations settings (spec 2 §3 Account operations settings), as get-account-ops lists them. */
export const AccountOps = z
  .object({
    webhook_url: z.string().openapi({ example: "https://hooks.example.com/linkwise" }),
    email: z.string().openapi({ example: "ops@example.com" }),
    signature_key: z.string().openapi({
      description: "The signing secret, masked (whsec_…last four): the whole secret is answered only by set-account-ops and rotate-account-ops-secret",
      example: "whsec_…Q2c=",
    }),
    previous_key_expires_at: isoTime().nullable().openapi({ description: "During a rotation: until when deliveries are also signed with the previous secret" }),
    webhook_disabled_at: isoTime().nullable().openapi({ description: "When deliveries were stopped (410, or failing for 5 days); enable-account-ops-webhook starts them again" }),
    webhook_disabled_reason: z.string().nullable(),
    failing_since: isoTime().nullable().openapi({ description: "Since when every delivery has failed (null after a success)" }),
    email_refused_at: isoTime().nullable().openapi({
      description: "When the mail server last refused, for good, an e-mail of this account to the current address (the last 7 days); null when it did not",
    }),
    email_refused_answer: z.string().nullable().openapi({ description: "The mail server's answer to that e-mail", example: "550 5.1.1 No such user" }),
  })
  .openapi("AccountOps");
export type AccountOps = z.infer<typeof AccountOps>;

/**
 * set-account-ops and rotate-account-ops-secret: the signing secret, whole only in the answer of
 * the call that made it (the first save, a rotation); a later save answers it masked (issue 63 item 9).
 */
export const AccountOpsSaved = z
  .object({
    detail: z.string(),
    signature_key: z.string().openapi({
      description:
        "Whole (whsec_ + base64 of 32 random bytes, Standard Webhooks) when this call made it: the first save, or a rotation; it is not answered whole again. Masked otherwise (whsec_…last four), as get-account-ops shows it.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwJ8pZlJ0Q2c=",
    }),
    signature_key_new: z.boolean().openapi({ description: "True when signature_key is the whole new secret: keep it now" }),
  })
  .openapi("AccountOpsSaved");
export type AccountOpsSaved = z.infer<typeof AccountOpsSaved>;

/** One delivery of an event to the webhook address, as the delivery log shows it. */
export const OpsDelivery = z
  .object({
    delivery_id: z.string(),
    event_id: z.string().openapi({ description: "The webhook-id header" }),
    event_type: z.string().openapi({ example: "outage.started" }),
    event_time: isoTime(),
    url: z.string(),
    status: z.enum(["pending", "sending", "succeeded", "failed"]).openapi({ description: "pending: waiting for its next attempt (next_attempt_at)" }),
    attempt: z.number().int().openapi({ description: "Attempts made" }),
    http_status: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    last_attempt_at: isoTime().nullable(),
    next_attempt_at: isoTime().nullable(),
    created_at: isoTime(),
  })
  .openapi("OpsDelivery");
export type OpsDelivery = z.infer<typeof OpsDelivery>;

export const OpsDeliveryPage = pageOf(OpsDelivery, "OpsDeliveryPage");

export const OpsEventQueued = z.object({ event_id: z.string(), detail: z.string() }).openapi("OpsEventQueued");

// The calls' requests: the platform validates with them and the console's Operations forms are these
// schemas (app/routes/operations/schemas.server.ts), so both say the same words within the same limits.

export const SetAccountOpsBody = z
  .strictObject({
    webhook_url: text(opsLimits.webhookUrl).openapi({
      description: "https:// (http:// only to hosts the operator allows); no user:password; must resolve to public addresses only. Empty: no webhook.",
      example: "https://hooks.example.com/linkwise",
    }),
    email: text(opsLimits.email)
      .refine((s) => s === "" || isEmail(s), emailMessages.invalid)
      .openapi({ description: "Where the events are e-mailed (grouped: at most one mail per 10 minutes). Empty: no e-mail.", example: "ops@example.com" }),
  })
  .openapi("SetAccountOps");

export const DeliveryIdBody = z.strictObject({ delivery_id: idField("Delivery id") }).openapi("OpsDeliveryId");
