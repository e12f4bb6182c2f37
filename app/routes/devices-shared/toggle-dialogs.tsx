import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { ToggleDialog } from "../../components/toggle-dialog.tsx";
import { DialogActions } from "../../components/dialog.tsx";
import { ConformForm, HiddenFields, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useIsPending } from "../../components/hooks.ts";
import { ddosFieldLabel, ddosFloodLabels, ddosFloods, ddosThresholds, DEFAULT_DDOS, type DdosFlood, type DdosThreshold } from "../../../platform/contract/devices.ts";
import { DeviceDialog, DeviceLine, deviceFormDialog } from "./device-dialog.tsx";
import { deviceIdOf, type DeviceDetail } from "./kind.ts";
import type { DeviceToggle } from "./toggles.ts";

/*
 * The on/off dialogs of both kinds (spec 3 §2.10, §4): one component for every row of the toggle
 * table (toggles.ts) through the kit's ToggleDialog (Confirm disabled until the switch differs,
 * enabled again after an error; the server refuses an unchanged value), and Edit DDoS Mitigation:
 * the switch and the three threshold sets (spec 3 §3, §9), alert ≤ block ≤ max.
 */

type Result = SubmissionResult<string[]> | null | undefined;

export function DeviceToggleDialog({ toggle, device, lastResult }: { toggle: DeviceToggle; device: DeviceDetail | null; lastResult: Result }) {
  if (!device) {
    return (
      <DeviceDialog name={toggle.dialog} title={toggle.title} device={null}>
        {() => null}
      </DeviceDialog>
    );
  }
  return (
    <ToggleDialog
      key={deviceIdOf(device)}
      name={toggle.dialog}
      title={toggle.title}
      label={toggle.label}
      current={toggle.current(device)}
      intent="toggle"
      fields={{ device_id: deviceIdOf(device), toggle: toggle.dialog }}
      lastResult={lastResult}
    >
      <DeviceLine device={device} />
      <p className="text-sm">{toggle.hint}</p>
    </ToggleDialog>
  );
}

type DdosForm = { enabled?: string } & Partial<Record<DdosFlood, Record<DdosThreshold, string>>>;

export const DdosDialog = deviceFormDialog("ddos", "Edit DDoS Mitigation", DdosForm);

function DdosForm({ device, lastResult }: { device: DeviceDetail; lastResult: Result }) {
  const id = `ddos-${deviceIdOf(device)}`;
  const thresholds = device.ddos_thresholds ?? DEFAULT_DDOS;
  // Save is never disabled (unlike a plain toggle): the thresholds may change alone.
  const defaultValue: DdosForm = { enabled: device.denial_of_service_enabled ? "on" : undefined };
  for (const f of ddosFloods) defaultValue[f] = { alert_threshold: String(thresholds[f].alert_threshold), block_threshold: String(thresholds[f].block_threshold), max_threshold: String(thresholds[f].max_threshold) };
  const [form, fields] = useForm<DdosForm>({ id, lastResult, constraint: useConstraint("ddos"), defaultValue });
  const pending = useIsPending({ intent: "ddos" });
  const { key: _key, ...switchInput } = getInputProps(fields.enabled!, { type: "checkbox", ariaAttributes: true });
  return (
    <ConformForm form={form} intent="ddos">
      <HiddenFields fields={{ device_id: deviceIdOf(device) }} />
      <DeviceLine device={device} />
      <p className="text-base-content/70 text-sm">Currently {device.denial_of_service_enabled ? "enabled" : "disabled"}.</p>
      <div className="fieldset">
        <label className="label text-base-content cursor-pointer justify-start gap-3 whitespace-normal" htmlFor={`${id}-enabled`}>
          <input {...switchInput} id={`${id}-enabled`} role="switch" className="toggle toggle-primary shrink-0" />
          <span>DDoS mitigation</span>
        </label>
      </div>
      <p className="mt-2 text-sm">Packets per second. For each flood: alert ≤ block ≤ max.</p>
      {ddosFloods.map((f) => (
        <fieldset key={f} className="fieldset mt-2">
          <legend className="fieldset-legend">{ddosFloodLabels[f]}</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {ddosThresholds.map((k) => (
              <TextField key={k} field={fields[f].getFieldset()[k]} label={ddosFieldLabel(f, k)} type="number" />
            ))}
          </div>
        </fieldset>
      ))}
      <DialogActions>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
