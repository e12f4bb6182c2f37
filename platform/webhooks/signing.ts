import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/*
 * Signing secrets and signatures, by the `standardwebhooks` package (Standard Webhooks:
 * webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256 of id.timestamp.body>`).
 */

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** The secret as the settings show it after it was shown once: its prefix and last four characters. */
export const maskedSecret = (secret: string) => (secret ? `whsec_…${secret.slice(-4)}` : "");

/**
 * The three headers of a delivery. During a rotation both secrets sign: the signatures are
 * space-separated, as the specification allows, and a receiver holding either verifies.
 */
export function signedHeaders(msgId: string, body: string, secrets: readonly string[], at = new Date()): Record<string, string> {
  const signature = secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(" ");
  return { "webhook-id": msgId, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}
