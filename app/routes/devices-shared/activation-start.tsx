import type { SubmissionResult } from "@conform-to/react";
import { useState, type FormEvent } from "react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SelectField, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "../../components/hooks.ts";
import { activationDialogs, criteriaFields, DEFAULT_Y1564_CRITERIA, DEFAULT_Y1564_PERFORMANCE_DURATION, performanceDurationOptions, type DeviceKind } from "./activation.ts";
import type { ActivationDevice } from "./activation.tsx";
import { goneMessages } from "../../lib/messages.ts";

/* Start Activation Test (spec 3 §4, §9): the peer, the service performance test's duration and the Y.1564 acceptance criteria (activation.tsx opens it). */

type Result = SubmissionResult<string[]> | null | undefined;

function Gone() {
  return (
    <>
      <p>{goneMessages.device}</p>
      <DialogActions cancelLabel="Close" />
    </>
  );
}

const layerOptions = [
  { value: "l3", label: "L3: peer IP address" },
  { value: "l2", label: "L2: peer MAC address and VLAN" },
];

export function StartActivationDialog({ kind, device, lastResult }: { kind: DeviceKind; device: ActivationDevice | null; lastResult: Result }) {
  return (
    <UrlDialog name={activationDialogs.start} title="Start Activation Test" size="lg">
      {device ? <StartForm key={device.id} kind={kind} device={device} lastResult={lastResult} /> : <Gone />}
    </UrlDialog>
  );
}

function StartForm({ kind, device, lastResult }: { kind: DeviceKind; device: ActivationDevice; lastResult: Result }) {
  const [form, fields] = useForm<Record<string, string>>({ id: `activation-test-${device.id}`, lastResult, constraint: useConstraint(activationDialogs.start), defaultValue: { layer: "l3", performance_duration_s: String(DEFAULT_Y1564_PERFORMANCE_DURATION) } });
  const pending = useIsPending({ intent: activationDialogs.start });
  const hydrated = useHydrated();
  const [layer, setLayer] = useState(String(fields.layer?.initialValue ?? "l3"));
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLSelectElement;
    if (target.name === "layer") setLayer(target.value);
  };
  // Without JavaScript every peer field is shown; the layer chosen says which the server reads.
  const show = (l: string) => kind === "metro" && (!hydrated || layer === l);
  return (
    <ConformForm form={form} intent={activationDialogs.start} onInput={onInput}>
      <input type="hidden" name="device_id" value={device.id} />
      <p className="mb-2">
        A service activation test (ITU-T Y.1564) of <strong>{device.name}</strong> towards a peer: the service configuration test at 25, 50, 75 and
        100 % of CIR, CIR + EIR and an overshoot (about half a minute), then the service performance test at CIR for as long as chosen below.
      </p>
      {kind === "metro" ? <SelectField field={fields.layer!} label="Test layer" options={layerOptions} placeholder={null} /> : null}
      {kind === "cpe" || show("l3") ? (
        <TextField field={fields.peer_ip!} label="Peer IP address" autoComplete="off" hint={kind === "metro" && !hydrated ? "For an L3 test." : undefined} />
      ) : null}
      {show("l2") ? (
        <div className="grid gap-x-4 sm:grid-cols-2">
          <TextField field={fields.peer_mac!} label="Peer MAC address" autoComplete="off" hint={!hydrated ? "For an L2 test, e.g. 00:1a:2b:3c:4d:5e." : undefined} />
          <TextField field={fields.vlan_id!} label="VLAN id" type="number" autoComplete="off" hint={!hydrated ? "For an L2 test, 1–4094." : undefined} />
        </div>
      ) : null}
      <SelectField
        field={fields.performance_duration_s!}
        label="Service performance test duration"
        options={performanceDurationOptions}
        placeholder={null}
        hint="ITU-T Y.1564 names these three: 15 minutes to activate a service, 2 or 24 hours for a longer look."
      />
      <details className="mt-3" open={criteriaFields.some((c) => fields[c.name]?.errors?.length) || undefined}>
        <summary className="cursor-pointer font-medium">Acceptance criteria</summary>
        <p className="text-base-content/70 mt-1 text-sm">Each step passes when it meets these (Y.1564 defaults shown).</p>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {criteriaFields.map((c) => (
            <TextField key={c.name} field={fields[c.name]!} label={c.label} type="number" placeholder={String(DEFAULT_Y1564_CRITERIA[c.name])} />
          ))}
        </div>
      </details>
      <DialogActions>
        <SubmitButton pending={pending}>Start</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
