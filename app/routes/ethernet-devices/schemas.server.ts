import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { hiddenId, requestForm } from "../../lib/form-fields.server.ts";
import { CreateMetroBody, sfpOnlyForFibre, UpdateMetroInfoBody } from "../../../platform/contract/devices.shapes.ts";
import { activationConstraints } from "../devices-shared/activation.server.ts";
import { deviceConstraints } from "../devices-shared/schemas.server.ts";
import { ccmIntervals, DEFAULT_MGMT_VLAN, oamLimits, SFP_PRODUCT, siteFields, vlanFields, vlanRange } from "./model.ts";

/*
 * The screen's own forms (spec 3 §5, §7.2): Create Device and Edit NID info are their calls'
 * requests (platform/contract/devices.shapes.ts: the same words within the same limits; a blank
 * VLAN id, rate or SFP is null, none); Edit OAM info keeps a schema of its own (platform/routes/
 * metro.ts checks it again).
 */

/** A whole number in a range, or nothing: `{what} must be a whole number from {min} to {max}.` (Edit OAM info). */
const wholeIn = (what: string, min: number, max: number) => {
  const message = `${what} must be a whole number from ${min} to ${max}.`;
  return z
    .string()
    .trim()
    .optional()
    .refine((s) => s === undefined || (/^\d+$/.test(s) && Number(s) >= min && Number(s) <= max), message)
    .transform((s) => (s === undefined ? undefined : Number(s)));
};

/** What a blank of the form is: none (null) for a VLAN id, a rate or an SFP. */
const blankAsNull = [...vlanFields.map(([name]) => name), "wan_cir_mbps", "wan_eir_mbps", "wan_sfp", "lan_sfp"] as const;
// The dialogs show no coordinates nor entity (the platform keeps them).
const hidden = { latitude: true, longitude: true, entity_name: true } as const;

export const CreateMetroSchema = requestForm(z.object(CreateMetroBody.shape).omit(hidden).superRefine(sfpOnlyForFibre), { blankAsNull });
export const EditMetroSchema = requestForm(z.object(UpdateMetroInfoBody.shape).omit(hidden).superRefine(sfpOnlyForFibre), { blankAsNull });

type MetroForm = z.output<typeof CreateMetroSchema>;

/** The platform's body: management VLAN 100 by default, SFPs only for the fibre product. */
export function metroBody<V extends MetroForm>(v: V) {
  const fibre = v.prod_code === SFP_PRODUCT;
  return {
    ...v,
    wan_mgmt_vlan_id: v.wan_mgmt_vlan_id ?? DEFAULT_MGMT_VLAN,
    wan_sfp: fibre ? (v.wan_sfp ?? null) : null,
    lan_sfp: fibre ? (v.lan_sfp ?? null) : null,
  };
}

/** The fields a platform detail item may name (beside them; the rest in the summary). */
export const metroFormFields = ["metro_name", "prod_code", ...siteFields.map(([n]) => n), ...vlanFields.map(([n]) => n), "wan_cir_mbps", "wan_eir_mbps", "wan_sfp", "lan_sfp", "description"];

const asciiName = (what: string, range: { min: number; max: number }) => {
  const message = `${what} must be ${range.min}–${range.max} printable ASCII characters.`;
  return z.string().optional().refine((s) => s !== undefined && s.length >= range.min && s.length <= range.max && /^[\x20-\x7E]*$/.test(s), message);
};
const onOff = z.preprocess((v) => v === "on" || v === "true", z.boolean());

/** Edit OAM info (IEEE 802.1ag / ITU-T Y.1731): the CFM fields are checked (and sent) only with continuity check on. */
export const OamSchema = z
  .object({
    metro_id: hiddenId("Metro id is missing."),
    loopback_enabled: onOff,
    ccp_enabled: onOff,
    ccm_interval: z.string().optional(),
    md_name: z.string().optional(),
    md_level: z.string().optional(),
    md_association: z.string().optional(),
    mep_id: z.string().optional(),
    vlan_id: z.string().optional(),
  })
  .transform((v, ctx) => {
    const base = { metro_id: v.metro_id, loopback_enabled: v.loopback_enabled, ccp_enabled: v.ccp_enabled };
    if (!v.ccp_enabled) return base;
    const checks = {
      // An empty choice asks for one; the list is for a value that is not on it (issue 63 item 23).
      ccm_interval: z.enum(ccmIntervals, { error: (iss) => (iss.input === undefined || iss.input === "" ? "Choose a CCM interval." : `CCM interval must be one of: ${ccmIntervals.join(", ")}.`) }),
      md_name: asciiName("MD name", oamLimits.mdName),
      md_level: wholeIn("MD level", oamLimits.mdLevel.min, oamLimits.mdLevel.max).refine((n) => n !== undefined, "MD level is required."),
      md_association: asciiName("MA name", oamLimits.maName),
      mep_id: wholeIn("MEP id", oamLimits.mepId.min, oamLimits.mepId.max).refine((n) => n !== undefined, "MEP id is required."),
      vlan_id: wholeIn("VLAN id", vlanRange.min, vlanRange.max).refine((n) => n !== undefined, "VLAN id is required."),
    };
    const out: Record<string, unknown> = { ...base };
    for (const [k, schema] of Object.entries(checks)) {
      const r = schema.safeParse(v[k as keyof typeof checks]); // why: k is a key of `checks`
      if (r.success) out[k] = r.data;
      else for (const issue of r.error.issues) ctx.addIssue({ code: "custom", path: [k], message: issue.message });
    }
    return out;
  });

export const oamFields = ["ccm_interval", "md_name", "md_level", "md_association", "mep_id", "vlan_id", "loopback_enabled", "ccp_enabled"];

/** The forms' HTML constraints (the shared dialogs' and the activation test's too). */
export const constraints = {
  ...deviceConstraints,
  ...activationConstraints,
  ...formConstraints({ create: CreateMetroSchema, "edit-nid": EditMetroSchema }),
};
