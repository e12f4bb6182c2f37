import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { CreateMetroBody, oamFields as oamRequestFields, oamInput, oamRules, oamValue, sfpOnlyForFibre, UpdateMetroInfoBody } from "../../../platform/contract/devices.shapes.ts";
import { activationConstraints } from "../devices-shared/activation.server.ts";
import { deviceConstraints } from "../devices-shared/schemas.server.ts";
import { DEFAULT_MGMT_VLAN, SFP_PRODUCT, siteFields, vlanFields } from "./model.ts";

/*
 * The screen's own forms (spec 3 §5, §7.2): Create Device and Edit NID info are their calls'
 * requests (platform/contract/devices.shapes.ts: the same words within the same limits; a blank
 * VLAN id, rate or SFP is null, none), Edit OAM info too (its rule the request's, `oamRules`).
 */

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

/**
 * Edit OAM info: edit_oam's request and its rule (the CFM fields checked and sent only with
 * continuity check on, in the request's words). Its two switches are the form's reading of a
 * checkbox: one turned off posts nothing, where the call takes `false`.
 */
const oamForm = z.object({ ...oamRequestFields, loopback_enabled: z.boolean().default(false), ccp_enabled: z.boolean().default(false) });
export const OamSchema = requestForm(z.preprocess(oamInput, oamForm.superRefine(oamRules)).transform(oamValue));

export const oamFields = ["ccm_interval", "md_name", "md_level", "md_association", "mep_id", "vlan_id", "loopback_enabled", "ccp_enabled"];

/** The forms' HTML constraints (the shared dialogs' and the activation test's too). */
export const constraints = {
  ...deviceConstraints,
  ...activationConstraints,
  // Edit OAM info's: the form's fields before its rule (a transform Conform does not read).
  ...formConstraints({ create: CreateMetroSchema, "edit-nid": EditMetroSchema, "edit-oam": oamForm }),
};
