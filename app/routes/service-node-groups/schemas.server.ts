import { z } from "zod";
import { CertificateBody, GroupBody } from "../../../platform/contract/nodes.shapes.ts";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { DISABLE_PHRASE } from "./model.ts";

/*
 * Import External Certificates needs three items (spec 2 §5): the certificate, the private key
 * (unencrypted PEM) and the CA chain. The form is the call's request schema
 * (platform/contract/nodes.shapes.ts, issue 61 item 1): each item required, at most 64 KB; the
 * platform then checks them as a PKI would (PEM, key match, encryption, validity, chain) and its
 * messages go beside the fields.
 */

export const ImportSchema = requestForm(z.object(CertificateBody.shape));

export const DisableSchema = confirmPhraseSchema(DISABLE_PHRASE, GroupBody.shape);

export const constraints = formConstraints({ import: ImportSchema });
