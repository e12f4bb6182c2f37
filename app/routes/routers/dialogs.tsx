import type { SubmissionResult } from "@conform-to/react";
import { useState, type FormEvent } from "react";
import { DialogActions, DialogWarning, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ConformForm, HiddenFields, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "../../components/hooks.ts";
import { cpeModes, deviceMessages, hourLabel, perfTestHours, scanInterval, wanAddressing } from "../../../platform/contract/devices.ts";
import { DeviceConfirmForm, DeviceDialog, DeviceFormActions, DeviceLine, deviceFormDialog, useDeviceForm } from "../devices-shared/device-dialog.tsx";
import { SERVICE_PRODUCT, type CpeDetail, type CpeProduct, type PeerRegion } from "./model.ts";

/*
 * The Internet NIDs screen's own dialogs (spec 3 §2.10, §5), opened by URL: Create Device, Edit CPE
 * Info, Edit Site and Stop Service (BN-CPE-IP), Edit Network Info, Edit Daily Performance Test, Edit Down
 * Notification Interval and Edit IP Monitor Target. The server validates (schemas.server.ts); the
 * dialogs both kinds share are in ../devices-shared/.
 */

type Result = SubmissionResult<string[]> | null | undefined;

const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

/** Tracks the named inputs of a form as typed (to enable a button with JavaScript). */
function useTyped(initial: Record<string, string>) {
  const [typed, setTyped] = useState(initial);
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    // why the cast: input events of a form come from its inputs.
    const t = e.target as HTMLInputElement;
    if (t.name in initial) setTyped((v) => ({ ...v, [t.name]: t.value }));
  };
  return { typed, onInput };
}

export function CreateDeviceDialog({ products, entityNames, lastResult }: { products: CpeProduct[]; entityNames: string[]; lastResult: Result }) {
  const [form, fields] = useForm<Record<string, string>>({ id: "create-cpe", lastResult, constraint: useConstraint("create") });
  const pending = useIsPending({ intent: "create" });
  return (
    <UrlDialog name="create" title="Create Device" size="lg">
      <ConformForm form={form} intent="create">
        <SelectField field={fields.prod_code!} label="Product" options={products.map((p) => ({ value: p.prod_code, label: `${p.prod_code}: ${p.name}` }))} placeholder="Select a product" />
        <TextField field={fields.cpe_name!} label="Name" autoComplete="off" />
        <TextField field={fields.site_address!} label="Site Address" autoComplete="off" hint="Where the device is installed." />
        <TextField field={fields.shipping_address!} label="Shipping Address" autoComplete="off" />
        <div className="grid gap-x-4 sm:grid-cols-2">
          <TextField field={fields.provider_service_id!} label="Provider Service ID" autoComplete="off" />
          <TextField field={fields.client_circuit_id!} label="Client Circuit ID" autoComplete="off" />
        </div>
        <SelectField field={fields.entity_name!} label="Entity Name" options={options(entityNames)} placeholder="None" />
        <div className="grid gap-x-4 sm:grid-cols-3">
          <TextField field={fields.contact_name!} label="Contact name" autoComplete="off" />
          <TextField field={fields.contact_email!} label="Contact email" type="email" autoComplete="off" />
          <TextField field={fields.contact_phone!} label="Contact phone" type="tel" autoComplete="off" />
        </div>
        <TextareaField field={fields.description!} label="Description" />
        <DialogActions>
          <SubmitButton pending={pending}>Create</SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

export const EditInfoDialog = deviceFormDialog("info", "Edit CPE Info", EditInfoForm);

function EditInfoForm({ device: cpe, lastResult }: { device: CpeDetail; lastResult: Result }) {
  const [form, fields] = useDeviceForm("info", cpe, lastResult, {
    cpe_name: cpe.cpe_name,
    site_address: cpe.site_address,
    provider_service_id: cpe.provider_service_id,
    client_circuit_id: cpe.client_circuit_id,
    ping_dns_ip: cpe.ping_dns_ip,
    ping_gw_ip: cpe.ping_gw_ip,
    ping_email_notification: cpe.ping_email_notification ? "on" : "",
    ping_webhook_notification: cpe.ping_webhook_notification ? "on" : "",
    description: cpe.description,
  });
  // Save only with Name and Site Address (spec 3 §5): with JavaScript the button waits; without, the server answers.
  const hydrated = useHydrated();
  // why the cast: a refused form's reply carries what was typed, by field name.
  const sent = lastResult?.initialValue as Record<string, string> | undefined;
  const { typed, onInput } = useTyped({ cpe_name: sent?.cpe_name ?? cpe.cpe_name, site_address: sent?.site_address ?? cpe.site_address });
  return (
    <ConformForm form={form} intent="info" onInput={onInput}>
      <HiddenFields fields={{ cpe_id: cpe.cpe_id }} />
      <TextField field={fields.cpe_name!} label="Name" autoComplete="off" />
      <TextField field={fields.site_address!} label="Site Address" autoComplete="off" />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <TextField field={fields.provider_service_id!} label="Provider Service ID" autoComplete="off" />
        <TextField field={fields.client_circuit_id!} label="Client Circuit ID" autoComplete="off" />
        <TextField field={fields.ping_dns_ip!} label="Ping DNS IP" autoComplete="off" hint="The DNS server the device pings." />
        <TextField field={fields.ping_gw_ip!} label="Ping gateway IP" autoComplete="off" hint="The gateway the device pings." />
      </div>
      <CheckboxField field={fields.ping_email_notification!} label="E-mail when the pings fail" />
      <CheckboxField field={fields.ping_webhook_notification!} label="Webhook when the pings fail" />
      <TextareaField field={fields.description!} label="Description" />
      <DialogActions>
        <SubmitButton pending={useIsPending({ intent: "info" })} disabled={hydrated && (!typed.cpe_name?.trim() || !typed.site_address?.trim())}>
          Save
        </SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

/**
 * Stop Service (BN-CPE-IP): asks first, as Reset Device and Delete do (issue 63 item 15), naming the
 * device and what stopping does. A device whose service is not active, or of another product, says
 * so instead of offering the button (the platform would refuse it: 409, 400).
 */
export function StopServiceDialog({ device }: { device: CpeDetail | null }) {
  return (
    <DeviceDialog name="stop-service" title="Stop Service" device={device}>
      {(cpe) =>
        cpe.prod_code !== SERVICE_PRODUCT || cpe.admin_state !== "active" ? (
          <>
            <DeviceLine device={cpe} />
            <DialogWarning>{cpe.prod_code !== SERVICE_PRODUCT ? deviceMessages.notServiceProduct : deviceMessages.notActive}</DialogWarning>
            <DialogActions />
          </>
        ) : (
          <DeviceConfirmForm
            intent="service"
            fields={{ cpe_id: cpe.cpe_id, service: "stop" }}
            device={cpe}
            consequence={`will stop its Internet service: the site at ${cpe.site_address} loses its Internet access until the service is activated again.`}
            question="Do you want to stop the service?"
            action="Stop Service"
          />
        )
      }
    </DeviceDialog>
  );
}

export const EditSiteDialog = deviceFormDialog("site", "Edit Site", EditSiteForm);

function EditSiteForm({ device: cpe, lastResult }: { device: CpeDetail; lastResult: Result }) {
  const [form, fields] = useDeviceForm("site", cpe, lastResult, { site_address: cpe.site_address, shipping_address: cpe.shipping_address, latitude: cpe.latitude?.toString() ?? "", longitude: cpe.longitude?.toString() ?? "" });
  return (
    <ConformForm form={form} intent="site">
      <HiddenFields fields={{ cpe_id: cpe.cpe_id }} />
      <DeviceLine device={cpe} />
      <TextField field={fields.site_address!} label="Site Address" autoComplete="off" />
      <TextField field={fields.shipping_address!} label="Shipping Address" autoComplete="off" />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <TextField field={fields.latitude!} label="Latitude" autoComplete="off" hint="-90 to 90, e.g. 50.11" />
        <TextField field={fields.longitude!} label="Longitude" autoComplete="off" hint="-180 to 180, e.g. 8.68" />
      </div>
      <DeviceFormActions intent="site">Save</DeviceFormActions>
    </ConformForm>
  );
}

export const NetworkInfoDialog = deviceFormDialog("network", "Edit Network Info", NetworkInfoForm);

function NetworkInfoForm({ device: cpe, lastResult }: { device: CpeDetail; lastResult: Result }) {
  const [form, fields] = useDeviceForm("network", cpe, lastResult, { mode: cpe.mode, wan_addressing: cpe.wan_addressing, wan_cidr: cpe.wan_cidr, wan_gateway: cpe.wan_gateway, dns_servers: cpe.dns_servers.join(", "), lan_cidr: cpe.lan_cidr });
  return (
    <ConformForm form={form} intent="network">
      <HiddenFields fields={{ cpe_id: cpe.cpe_id }} />
      <DeviceLine device={cpe} />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <SelectField field={fields.mode!} label="Mode" options={options(cpeModes)} placeholder={null} />
        <SelectField field={fields.wan_addressing!} label="WAN addressing" options={wanAddressing.map((v) => ({ value: v, label: v === "dhcp" ? "DHCP" : "Static" }))} placeholder={null} />
        <TextField field={fields.wan_cidr!} label="WAN address" autoComplete="off" hint="Static addressing: with its prefix, e.g. 192.0.2.10/24." />
        <TextField field={fields.wan_gateway!} label="WAN gateway" autoComplete="off" hint="Static addressing: e.g. 192.0.2.1." />
      </div>
      <TextField field={fields.dns_servers!} label="DNS servers" autoComplete="off" hint="IP addresses, separated by commas." />
      <TextField field={fields.lan_cidr!} label="LAN address" autoComplete="off" hint="ROUTER mode: with its prefix, e.g. 10.0.0.1/24." />
      <DeviceFormActions intent="network">Save</DeviceFormActions>
    </ConformForm>
  );
}

/** What the perf intent asks to confirm (a Start or Stop checked, not yet sent). */
export interface PerfConfirm {
  enable: "start" | "stop";
  peer_region?: string | undefined;
  hour_of_day?: string | undefined;
}

export function PerfTestDialog({ cpe, regions, confirm, lastResult }: { cpe: CpeDetail | null; regions: PeerRegion[]; confirm: PerfConfirm | null; lastResult: Result }) {
  return (
    <DeviceDialog name="perf" title="Edit Daily Performance Test" device={cpe}>
      {(d) => (confirm ? <PerfConfirmForm cpe={d} confirm={confirm} regions={regions} /> : <PerfTestForm cpe={d} regions={regions} lastResult={lastResult} />)}
    </DeviceDialog>
  );
}

const hourOptions = Array.from({ length: perfTestHours.max - perfTestHours.min + 1 }, (_, i) => ({ value: String(i), label: hourLabel(i) }));
const regionText = (regions: PeerRegion[], id: string | null | undefined) => {
  const r = regions.find((x) => x.peer_region === id);
  return r ? `${r.peer_region} (${r.city}, ${r.country})` : (id ?? "");
};

function PerfTestForm({ cpe, regions, lastResult }: { cpe: CpeDetail; regions: PeerRegion[]; lastResult: Result }) {
  const scheduled = cpe.perf_test_scheduled;
  const [form, fields] = useForm<Record<string, string>>({ id: `perf-${cpe.cpe_id}`, lastResult, constraint: useConstraint("perf") });
  const pending = useIsPending({ intent: "perf" });
  return (
    <ConformForm form={form} intent="perf">
      <HiddenFields fields={{ cpe_id: cpe.cpe_id, enable: scheduled ? "stop" : "start" }} />
      <DeviceLine device={cpe} />
      {scheduled ? (
        <p>
          Scheduled every day at {hourLabel(cpe.perf_test_hour_of_day ?? 0)} UTC towards {regionText(regions, cpe.perf_test_peer_region)}.
        </p>
      ) : (
        <>
          <p>Not scheduled. Choose the peer region and the hour of day (UTC) of the daily test.</p>
          <SelectField field={fields.peer_region!} label="Peer region" options={regions.map((r) => ({ value: r.peer_region, label: regionText(regions, r.peer_region) }))} placeholder="Select the Peer region" />
          <SelectField field={fields.hour_of_day!} label="Hour of day (UTC)" options={hourOptions} placeholder="Select the hour" />
        </>
      )}
      <DialogActions>
        <SubmitButton pending={pending} className={scheduled ? "btn btn-error" : "btn btn-primary"}>
          {scheduled ? "Stop" : "Start"}
        </SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

/** The confirmation of a Start or Stop (spec 3 §4: each confirmed), the checked values carried along. */
function PerfConfirmForm({ cpe, confirm, regions }: { cpe: CpeDetail; confirm: PerfConfirm; regions: PeerRegion[] }) {
  const [form] = useForm({ id: `perf-confirm-${cpe.cpe_id}` });
  const start = confirm.enable === "start";
  const fields: Record<string, string> = { cpe_id: cpe.cpe_id, enable: confirm.enable, confirmed: "yes" };
  if (start) Object.assign(fields, { peer_region: confirm.peer_region ?? "", hour_of_day: confirm.hour_of_day ?? "" });
  return (
    <ConformForm form={form} intent="perf">
      <HiddenFields fields={fields} />
      <DeviceLine device={cpe} />
      <p>
        {start
          ? `Start the daily performance test at ${hourLabel(Number(confirm.hour_of_day))} UTC towards ${regionText(regions, confirm.peer_region)}?`
          : "Stop the daily performance test?"}
      </p>
      <DialogActions>
        <SubmitButton pending={useIsPending({ intent: "perf" })} className={start ? "btn btn-primary" : "btn btn-error"}>
          {start ? "Confirm Start" : "Confirm Stop"}
        </SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

/** Edit Down Notification Interval and Edit IP Monitor Target: one value each. */
const ONE_VALUE = {
  scan: {
    title: "Edit Down Notification Interval",
    field: "scan_interval",
    label: "Down notification interval (minutes)",
    hint: `How long the device may be unreachable before you are notified: ${scanInterval.min} to ${scanInterval.max} minutes (default ${scanInterval.default}).`,
    value: (c: CpeDetail) => String(c.scan_gap || scanInterval.default),
    type: "number" as const,
  },
  target: {
    title: "Edit IP Monitor Target",
    field: "ip_monitor_target",
    label: "IP monitor target",
    hint: "The address the device pings to tell whether its link is up.",
    value: (c: CpeDetail) => c.ip_monitor_target,
    type: "text" as const,
  },
};

export function OneValueDialog({ name, cpe, lastResult }: { name: keyof typeof ONE_VALUE; cpe: CpeDetail | null; lastResult: Result }) {
  const def = ONE_VALUE[name];
  return (
    <DeviceDialog name={name} title={def.title} device={cpe}>
      {(d) => <OneValueForm name={name} cpe={d} lastResult={lastResult} />}
    </DeviceDialog>
  );
}

function OneValueForm({ name, cpe, lastResult }: { name: keyof typeof ONE_VALUE; cpe: CpeDetail; lastResult: Result }) {
  const def = ONE_VALUE[name];
  const [form, fields] = useDeviceForm(name, cpe, lastResult, { [def.field]: def.value(cpe) });
  return (
    <ConformForm form={form} intent={name}>
      <HiddenFields fields={{ cpe_id: cpe.cpe_id }} />
      <DeviceLine device={cpe} />
      <TextField field={fields[def.field]!} label={def.label} hint={def.hint} type={def.type} autoComplete="off" />
      <DeviceFormActions intent={name}>Save</DeviceFormActions>
    </ConformForm>
  );
}
