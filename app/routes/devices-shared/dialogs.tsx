import type { SubmissionResult } from "@conform-to/react";
import { copyText } from "../../components/clipboard.ts";
import { RemoveDialog } from "../../components/confirm-phrase-dialog.tsx";
import { DialogActions } from "../../components/dialog.tsx";
import { DeviceConfirmForm, DeviceDialog, DeviceFormActions, DeviceLine, deviceFormDialog, useDeviceForm } from "./device-dialog.tsx";
import { ConformForm, HiddenFields, SelectField, SubmitButton, TextField } from "../../components/forms.tsx";
import { useHydrated, useIsPending } from "../../components/hooks.ts";
import { showToast } from "../../components/toaster.tsx";
import { formatTime } from "../../lib/format.ts";
import { deviceMessages, hourLabel, perfTestHours, type LanInterfaceRow } from "../../../platform/contract/devices.ts";
import type { DeviceDialogData } from "./dialog-data.server.ts";
import { DdosDialog, DeviceToggleDialog } from "./toggle-dialogs.tsx";
import { DiagnosticsDialog } from "./diagnostics-dialog.tsx";
import { deviceIdOf, deviceNameOf, pingAnswerOf, tokenAnswerOf, type DeviceDetail, type DeviceKind } from "./kind.ts";
import { deviceToggle } from "./toggles.ts";
import { COPIED, goneMessages } from "../../lib/messages.ts";

/*
 * The dialogs both kinds share (spec 3 §2.10 "Items common to all", §2.11, §5, §8), opened by URL
 * (`?dialog=…&id=<device id>`): Assign Entity, Get Diagnostics, Reset LAN Ports, Reset Device,
 * Ping and Traceroute, Generate Registration Token, Track Shipping, Announcement, Delete, and the
 * toggle and DDoS dialogs (toggle-dialogs.tsx). Every form posts `device_id`; the intents
 * (intents.server.ts) turn it into the kind's call.
 *
 *   <DeviceDialogs kind="cpe" dialog={dialog} data={loaderData} actionData={actionData} />
 */

type Result = SubmissionResult<string[]> | null | undefined;

export interface DeviceDialogsProps {
  kind: DeviceKind;
  /** The open dialog (useScreen's). */
  dialog: string | null;
  /** The loader's deviceDialogData(…) (spread into its data). */
  data: DeviceDialogData;
  actionData: unknown;
  /** The action's form reply (useScreen's `result`). */
  lastResult: Result;
}

/** The shared dialog the URL opens, if it is one of them (else null: the screen's own dialogs). */
export function DeviceDialogs({ kind, dialog, data, actionData, lastResult }: DeviceDialogsProps) {
  const { device } = data;
  const toggle = deviceToggle(kind, dialog);
  if (toggle) return <DeviceToggleDialog toggle={toggle} device={device} lastResult={lastResult} />;
  switch (dialog) {
    case "ddos":
      return <DdosDialog device={device} lastResult={lastResult} />;
    case "assign":
      return <AssignEntityDialog device={device} entityNames={data.entityNames ?? []} lastResult={lastResult} />;
    case "diagnostics":
      return <DiagnosticsDialog kind={kind} device={device} diagnostics={data.diagnostics} />;
    case "reset-lan":
      return <ResetLanDialog device={device} lan={data.lan ?? []} lastResult={lastResult} />;
    case "reset-device":
      return <ResetDeviceDialog device={device} />;
    case "ping":
      return <PingDialog device={device} lastResult={lastResult} answer={pingAnswerOf(actionData)} />;
    case "token":
      return <TokenDialog device={device} lastResult={lastResult} answer={tokenAnswerOf(actionData)} />;
    case "shipping":
      return <ShippingDialog device={device} lastResult={lastResult} />;
    case "announcement":
      return <AnnouncementDialog device={device} lastResult={lastResult} />;
    case "remove":
      return <DeleteDeviceDialog kind={kind} device={device} lastResult={lastResult} />;
    default:
      return null;
  }
}

const AssignEntityDialog = deviceFormDialog("assign", "Assign Entity", AssignEntityForm);

function AssignEntityForm({ device, entityNames, lastResult }: { device: DeviceDetail; entityNames: string[]; lastResult: Result }) {
  const [form, fields] = useDeviceForm("assign", device, lastResult, { new_entity_name: device.entity_name ?? "" });
  return (
    <ConformForm form={form} intent="assign">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device}>{device.entity_name ? <>belongs to {device.entity_name}.</> : <>belongs to no entity.</>}</DeviceLine>
      <SelectField field={fields.new_entity_name!} label="Entity Name" options={entityNames.map((n) => ({ value: n, label: n }))} placeholder={deviceMessages.selectEntity} />
      <DeviceFormActions intent="assign">Assign Entity</DeviceFormActions>
    </ConformForm>
  );
}

const ResetLanDialog = deviceFormDialog("reset-lan", "Reset LAN Ports", ResetLanForm);

function ResetLanForm({ device, lan, lastResult }: { device: DeviceDetail; lan: LanInterfaceRow[]; lastResult: Result }) {
  const [form, fields] = useDeviceForm("reset-lan", device, lastResult);
  const options = lan.map((l) => ({ value: l.intf, label: `${l.name} (${l.intf}), ${l.operational_state}, ${l.speed}` }));
  return (
    <ConformForm form={form} intent="reset-lan">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device}>The port goes down for a few seconds and comes back.</DeviceLine>
      <SelectField field={fields.interface!} label="Interface" options={options} placeholder="Choose an interface" />
      <DeviceFormActions intent="reset-lan">Reset</DeviceFormActions>
    </ConformForm>
  );
}

function ResetDeviceDialog({ device }: { device: DeviceDetail | null }) {
  return (
    <DeviceDialog name="reset-device" title="Reset Device" device={device}>
      {(d) => (
        <DeviceConfirmForm
          intent="reset-device"
          fields={{ device_id: deviceIdOf(d) }}
          device={d}
          consequence="will be hard reset: it reboots and is down for about a minute."
          question="Do you want to reset this device?"
          action="Reset Device"
        />
      )}
    </DeviceDialog>
  );
}


const PingDialog = deviceFormDialog("ping", "Ping and Traceroute", PingForm);

function PingForm({ device, lastResult, answer }: { device: DeviceDetail; lastResult: Result; answer: ReturnType<typeof pingAnswerOf> }) {
  const [form, fields] = useDeviceForm("ping", device, lastResult, { ip_address: answer?.ip_address ?? "" });
  const pending = useIsPending({ intent: "ping" });
  return (
    <ConformForm form={form} intent="ping">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device}>runs the tool towards the address.</DeviceLine>
      <TextField field={fields.ip_address!} label="IP address" autoComplete="off" hint="An IPv4 or IPv6 address, e.g. 8.8.8.8." />
      <DialogActions cancelLabel="Close">
        <SubmitButton pending={pending} name="tool" value="ping" className="btn btn-primary">
          Ping
        </SubmitButton>
        <SubmitButton pending={pending} name="tool" value="traceroute" className="btn btn-primary">
          Traceroute
        </SubmitButton>
      </DialogActions>
      {answer ? (
        <section aria-label={`${answer.tool === "ping" ? "Ping" : "Traceroute"} output`} className="mt-3">
          <h3 className="font-semibold">
            {answer.tool === "ping" ? "Ping" : "Traceroute"} {answer.ip_address}
          </h3>
          <pre className="bg-base-200 mt-1 rounded p-2 text-xs break-all whitespace-pre-wrap">{answer.output}</pre>
        </section>
      ) : null}
    </ConformForm>
  );
}

const TokenDialog = deviceFormDialog("token", "Generate Registration Token", TokenForm);

function TokenForm({ device, lastResult, answer }: { device: DeviceDetail; lastResult: Result; answer: ReturnType<typeof tokenAnswerOf> }) {
  const [form] = useDeviceForm("token", device, lastResult);
  const hydrated = useHydrated();
  const pending = useIsPending({ intent: "token" });
  if (answer) {
    return (
      <div>
        {/* The focus comes here when the answer replaces the form (UrlDialog: never <body>). */}
        <p role="status" tabIndex={-1} data-dialog-focus="">
          {answer.detail}
        </p>
        <p className="mt-2">The device registers with this token. It is shown once: copy it now. It expires {formatTime(answer.expires_at)}.</p>
        <p className="mt-2 flex flex-wrap items-center gap-2">
          <code className="bg-base-200 rounded px-2 py-1 font-mono text-sm break-all select-all" aria-label="Registration token">
            {answer.token}
          </code>
          {hydrated ? (
            <button
              type="button"
              className="btn btn-sm"
              onClick={() =>
                copyText(answer.token).then(
                  () => showToast({ type: "success", message: COPIED }),
                  () => showToast({ type: "error", message: "Could not copy text to clipboard" }),
                )
              }
            >
              Copy<span className="sr-only"> the registration token</span>
            </button>
          ) : null}
        </p>
        <DialogActions cancelLabel="Close" />
      </div>
    );
  }
  return (
    <ConformForm form={form} intent="token">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device} />
      <p>
        A new token replaces the current one{device.token_issued_at ? <> (issued {formatTime(device.token_issued_at)})</> : null}: the previous token stops working.
      </p>
      <DialogActions>
        <SubmitButton pending={pending}>Generate</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

const ShippingDialog = deviceFormDialog("shipping", "Track Shipping", ShippingForm);

function ShippingForm({ device, lastResult }: { device: DeviceDetail; lastResult: Result }) {
  const [form, fields] = useDeviceForm("shipping", device, lastResult, { tracking_number: device.tracking_number });
  return (
    <ConformForm form={form} intent="shipping">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device} />
      <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium">Shipping address</dt>
        <dd className="wrap-anywhere">{device.shipping_address || "N/A"}</dd>
        <dt className="font-medium">State</dt>
        <dd>{device.state}</dd>
      </dl>
      <TextField field={fields.tracking_number!} label="Tracking number" autoComplete="off" hint="The carrier's tracking number of the device's shipment." />
      <DeviceFormActions intent="shipping">Save</DeviceFormActions>
    </ConformForm>
  );
}

const hourOptions = Array.from({ length: perfTestHours.max - perfTestHours.min + 1 }, (_, i) => ({ value: String(i), label: hourLabel(i) }));

const AnnouncementDialog = deviceFormDialog("announcement", "Announcement", AnnouncementForm);

function AnnouncementForm({ device, lastResult }: { device: DeviceDetail; lastResult: Result }) {
  const [form, fields] = useDeviceForm("announcement", device, lastResult);
  const upcoming = device.announcements.filter((a) => Date.parse(a.end_time) > Date.now());
  return (
    <ConformForm form={form} intent="announcement">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device}>A maintenance window: left out of uptime, no alerts while it lasts.</DeviceLine>
      {/* why the cast: the kit's TextField does not list "date"; Conform's getInputProps takes any input type. */}
      <TextField field={fields.date!} label="Date (UTC)" type={"date" as "text"} />
      <SelectField field={fields.hour!} label="Time (UTC)" options={hourOptions} placeholder="Choose a time" />
      <TextField field={fields.duration!} label="Duration (hours)" type="number" hint="At least 1 hour." />
      {upcoming.length ? (
        <div className="mt-3 text-sm">
          <h3 className="font-semibold">Announced</h3>
          <ul className="list-inside list-disc">
            {upcoming.map((a) => (
              <li key={a.announcement_id}>
                {formatTime(a.start_time)}, {a.duration} h
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <DeviceFormActions intent="announcement">Create</DeviceFormActions>
    </ConformForm>
  );
}

/** The dialog's title names what is deleted (issue 63 item 23: it was only "Delete"). */
const deleteTitles: Record<DeviceKind, string> = { cpe: "Delete Internet NID", metro: "Delete Metro Ethernet NID" };

function DeleteDeviceDialog({ kind, device, lastResult }: { kind: DeviceKind; device: DeviceDetail | null; lastResult: Result }) {
  const id = device ? deviceIdOf(device) : "";
  return (
    <RemoveDialog title={deleteTitles[kind]} phrase={id || "confirm"} fields={{ device_id: id }} lastResult={lastResult} gone={goneMessages.device}>
      {device ? (
        <>
          Delete <strong>{deviceNameOf(device)}</strong>? Its settings, announcements and test results go with it. Type the device id to confirm.
        </>
      ) : null}
    </RemoveDialog>
  );
}
