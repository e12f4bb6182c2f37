import type { SubmissionResult } from "@conform-to/react";
import { useState, type FormEvent } from "react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ConformForm, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "../../components/hooks.ts";
import { DeviceLine, deviceFormDialog } from "../devices-shared/device-dialog.tsx";
import { DEFAULT_MGMT_VLAN, metroDialogs, oamLimits, SFP_PRODUCT, sfpLabel, sfpTypes, siteFields, vlanFields, vlanRange, type MetroDetail, type MetroProduct } from "./model.ts";

/*
 * The dialogs only the Metro Ethernet NIDs screen has (spec 3 §2.11, §5): Create Device, Edit NID
 * info (one form, table-driven), Edit OAM info. The common ones are devices-shared/dialogs.tsx.
 * The server validates (schemas.server.ts); without JavaScript every field is shown and a hint
 * says when it applies.
 */

type Result = SubmissionResult<string[]> | null | undefined;
type Fields = ReturnType<typeof useForm<Record<string, string>>>[1];

/** The create/edit fields: name, product, site and contact, VLANs, CIR/EIR, and the SFPs for BN-METRO-1000F. */
function MetroFields({ fields, products, product, edit }: { fields: Fields; products: MetroProduct[]; product: string; edit: boolean }) {
  const hydrated = useHydrated();
  const fibre = product === SFP_PRODUCT;
  const sfpHint = hydrated ? undefined : `Only for ${SFP_PRODUCT}.`;
  return (
    <>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <TextField field={fields.metro_name!} label="Name" autoComplete="off" />
        <SelectField field={fields.prod_code!} label="Product code" options={products.map((p) => ({ value: p.prod_code, label: `${p.prod_code} (${p.name})` }))} placeholder="Select a product" />
        {siteFields.map(([name, label]) => (
          <TextField key={name} field={fields[name]!} label={label} type={name === "contact_email" ? "email" : name === "contact_phone" ? "tel" : "text"} autoComplete="off" />
        ))}
      </div>
      {edit ? <TextareaField field={fields.description!} label="Description" /> : null}
      <fieldset className="mt-2">
        <legend className="font-semibold">VLANs and rates</legend>
        <p className="text-base-content/70 text-sm">
          VLAN ids {vlanRange.min}–{vlanRange.max}; leave one blank to leave it off. The management VLAN is {DEFAULT_MGMT_VLAN} unless given.
        </p>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {vlanFields.map(([name, label]) => (
            <TextField key={name} field={fields[name]!} label={label} type="number" placeholder={name === "wan_mgmt_vlan_id" ? String(DEFAULT_MGMT_VLAN) : undefined} />
          ))}
          <TextField field={fields.wan_cir_mbps!} label="WAN CIR (Mbps)" type="number" />
          <TextField field={fields.wan_eir_mbps!} label="WAN EIR (Mbps)" type="number" />
          {/* Without JavaScript the fields cannot follow the product: shown only while none is chosen
              yet (a new device), never for a known product other than BN-METRO-1000F (issue 63 item 22). */}
          {fibre || (!hydrated && !product) ? (
            <>
              <SelectField field={fields.wan_sfp!} label="WAN SFP" hint={sfpHint} options={sfpTypes.map((s) => ({ value: s, label: sfpLabel(s) }))} />
              <SelectField field={fields.lan_sfp!} label="LAN SFP" hint={sfpHint} options={sfpTypes.map((s) => ({ value: s, label: sfpLabel(s) }))} />
            </>
          ) : null}
        </div>
      </fieldset>
    </>
  );
}

/** The product chosen in the form (it decides the SFP fields), followed as it changes. */
function useProduct(initial: string) {
  const [product, setProduct] = useState(initial);
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const t = e.target as HTMLSelectElement;
    if (t.name === "prod_code") setProduct(t.value);
  };
  return { product, onInput };
}

export function CreateMetroDialog({ products, lastResult }: { products: MetroProduct[]; lastResult: Result }) {
  const [form, fields] = useForm<Record<string, string>>({ id: "create-metro", lastResult, constraint: useConstraint("create"), defaultValue: { wan_mgmt_vlan_id: String(DEFAULT_MGMT_VLAN) } });
  const pending = useIsPending({ intent: "create" });
  const { product, onInput } = useProduct(String(fields.prod_code?.initialValue ?? ""));
  return (
    <UrlDialog name={metroDialogs.create} title="Create Device" size="lg">
      <ConformForm form={form} intent="create" onInput={onInput}>
        <MetroFields fields={fields} products={products} product={product} edit={false} />
        <DialogActions>
          <SubmitButton pending={pending}>Create</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

export const EditNidDialog = deviceFormDialog(metroDialogs.edit, "Edit NID info", EditNidForm, "lg");

function EditNidForm({ device: metro, products, lastResult }: { device: MetroDetail; products: MetroProduct[]; lastResult: Result }) {
  const defaultValue: Record<string, string> = {
    metro_name: metro.metro_name,
    prod_code: metro.prod_code,
    description: metro.description,
    wan_cir_mbps: str(metro.wan_cir_mbps),
    wan_eir_mbps: str(metro.wan_eir_mbps),
    wan_sfp: str(metro.wan_sfp),
    lan_sfp: str(metro.lan_sfp),
    ...Object.fromEntries(siteFields.map(([name]) => [name, metro[name]])),
    ...Object.fromEntries(vlanFields.map(([name]) => [name, str(metro[name])])),
  };
  const [form, fields] = useForm<Record<string, string>>({ id: `edit-nid-${metro.metro_id}`, lastResult, constraint: useConstraint("edit-nid"), defaultValue });
  const pending = useIsPending({ intent: "edit-nid" });
  const { product, onInput } = useProduct(String(fields.prod_code?.initialValue ?? metro.prod_code));
  return (
    <ConformForm form={form} intent="edit-nid" onInput={onInput}>
      <input type="hidden" name="metro_id" value={metro.metro_id} />
      <DeviceLine device={metro} />
      <MetroFields fields={fields} products={products} product={product} edit />
      <DialogActions>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export const OamDialog = deviceFormDialog(metroDialogs.oam, "Edit OAM info", OamForm, "lg");

function OamForm({ device: metro, ccmIntervals, lastResult }: { device: MetroDetail; ccmIntervals: string[]; lastResult: Result }) {
  const on = (b: boolean) => (b ? "on" : "");
  const [form, fields] = useForm<Record<string, string>>({
    id: `edit-oam-${metro.metro_id}`,
    lastResult,
    constraint: useConstraint(metroDialogs.oam),
    defaultValue: {
      loopback_enabled: on(metro.oam_loopback_enabled),
      ccp_enabled: on(metro.oam_ccp_enabled),
      ccm_interval: str(metro.oam_ccm_interval),
      md_name: str(metro.oam_md_name),
      md_level: str(metro.oam_md_level),
      md_association: str(metro.oam_md_association),
      mep_id: str(metro.oam_mep_id),
      vlan_id: str(metro.oam_vlan_id),
    },
  });
  const pending = useIsPending({ intent: "edit-oam" });
  const hydrated = useHydrated();
  const [ccp, setCcp] = useState(fields.ccp_enabled?.initialValue === "on");
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const t = e.target as HTMLInputElement;
    if (t.name === "ccp_enabled") setCcp(t.checked);
  };
  // Required while continuity check is on (issue 63 item 18): marked as the switch turns on with
  // JavaScript; without, as the server last saw it, the label saying when (every field is shown).
  const when = { required: ccp, requiredWhen: "continuity check is on" };
  const { mdLevel, mepId, mdName, maName } = oamLimits;
  return (
    <ConformForm form={form} intent="edit-oam" onInput={onInput}>
      <input type="hidden" name="metro_id" value={metro.metro_id} />
      <DeviceLine device={metro} />
      <p className="mb-2 text-sm">Ethernet OAM: IEEE 802.1ag connectivity fault management and ITU-T Y.1731 loopback.</p>
      <CheckboxField field={fields.loopback_enabled!} label="Loopback (LBM/LBR)" />
      <CheckboxField field={fields.ccp_enabled!} label="Continuity check (CCM)" />
      {!hydrated || ccp ? (
        <fieldset className="mt-2">
          <legend className="font-semibold">Continuity check</legend>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <SelectField field={fields.ccm_interval!} label="CCM interval" {...when} options={ccmIntervals.map((c) => ({ value: c, label: c }))} placeholder="Select an interval" />
            <TextField field={fields.md_level!} label={`MD level (${mdLevel.min}–${mdLevel.max})`} type="number" {...when} />
            <TextField field={fields.md_name!} label={`MD name (${mdName.min}–${mdName.max} characters)`} {...when} autoComplete="off" />
            <TextField field={fields.md_association!} label={`MA name (${maName.min}–${maName.max} characters)`} {...when} autoComplete="off" />
            <TextField field={fields.mep_id!} label={`MEP id (${mepId.min}–${mepId.max})`} type="number" {...when} />
            <TextField field={fields.vlan_id!} label={`VLAN id (${vlanRange.min}–${vlanRange.max})`} type="number" {...when} />
          </div>
        </fieldset>
      ) : null}
      <DialogActions>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
