import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { DISABLE_PHRASE, nodeLimits } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * Import External Certificates needs three items (spec 2 §5): the certificate, the private key
 * (unencrypted PEM) and the CA chain. The platform checks them as a PKI would (key match,
 * encryption, validity, chain) and its messages go beside the fields.
 */

const groupId = { service_node_group_id: hiddenId(formMessages.nodeGroupMissing) };
const max = nodeLimits.certificateBytes;
const pem = (what: string) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .refine((s) => Buffer.byteLength(s) <= max, `${what} must be at most 64 KB.`)
    .refine((s) => s.includes("-----BEGIN "), `${what} must be in PEM format (-----BEGIN …-----).`);

export const ImportSchema = z.object({
  ...groupId,
  certificate: pem("The certificate"),
  private_key: pem("The private key"),
  ca_chain: pem("The CA chain"),
});

export const DisableSchema = confirmPhraseSchema(DISABLE_PHRASE, groupId);

export const constraints = formConstraints({ import: ImportSchema });
