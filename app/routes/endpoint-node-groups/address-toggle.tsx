import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, FieldErrors, HiddenFields, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint, useHydrated, useIsPending } from "../../components/hooks.ts";
import { toggleConfirmDisabled } from "../../components/toggle-form.tsx";
import type { AddressToggleTexts, ToggleState } from "./model.ts";

/*
 * A toggle dialog with one address (Setup DHCP Relay, Setup VRRP, Configure LAN Interface; spec 2
 * §4): an enable switch and the address it uses. The toggle-dialog rules (spec 2 §4, DESIGN.md):
 * with JavaScript, Confirm is disabled until the switch or the address differs from what the
 * platform has now, and enabled again after an error; the server refuses an unchanged value
 * (addressToggleSchema), so the rule holds without JavaScript too.
 */

export interface AddressToggleProps {
  /** The dialog's words (model.ts `addressToggle`): its name is the dialog's and the intent's. */
  texts: AddressToggleTexts;
  /** What the platform has now; null: the subject is gone (the dialog says `gone`). */
  current: ToggleState | null;
  gone: string;
  fields: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | null;
  children?: ReactNode;
}

export function AddressToggleDialog({ texts, current, gone, ...form }: AddressToggleProps) {
  const id = `${texts.name}-${Object.values(form.fields).join("-")}`;
  return (
    <UrlDialog name={texts.name} title={texts.title}>
      {current ? (
        <AddressToggleForm key={id} id={id} texts={texts} current={current} {...form} />
      ) : (
        <>
          <p role="alert">{gone}</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
}

function AddressToggleForm({ id, texts, current, fields, lastResult, children }: Omit<AddressToggleProps, "gone" | "current"> & { id: string; current: ToggleState }) {
  const { name: intent, label, address } = texts;
  const [form, formFields] = useForm<Record<string, string>>({
    id,
    lastResult,
    constraint: useConstraint(intent),
    defaultValue: { enabled: current.enabled ? "on" : "", [address.name]: current.address },
  });
  const field = formFields.enabled!;
  const hydrated = useHydrated();
  const pending = useIsPending({ intent });
  const sent = lastResult?.initialValue as Record<string, unknown> | undefined;
  const [checked, setChecked] = useState(sent ? sent.enabled === "on" : current.enabled);
  const [typed, setTyped] = useState(sent ? String(sent[address.name] ?? "") : current.address);
  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement;
    if (target.name === "enabled") setChecked(target.checked);
    if (target.name === address.name) setTyped(target.value);
  };
  const unchanged = checked === current.enabled && (!checked || typed.trim() === current.address);
  const { key: _key, ...input } = getInputProps(field, { type: "checkbox", ariaAttributes: true });
  return (
    <ConformForm form={form} intent={intent} onInput={onInput} onChange={onInput}>
      <HiddenFields fields={fields} />
      {children}
      <p className="text-base-content/70 text-sm">
        Currently {current.enabled ? `enabled (${current.address || "no address"})` : "disabled"}.
      </p>
      <div className="fieldset">
        <label className="label text-base-content cursor-pointer justify-start gap-3 whitespace-normal" htmlFor={`${id}-enabled`}>
          <input {...input} id={`${id}-enabled`} role="switch" className="toggle toggle-primary shrink-0" />
          <span className="min-w-0 break-words">{label}</span>
        </label>
        <FieldErrors field={field} />
      </div>
      <TextField field={formFields[address.name]!} label={address.label} hint={address.hint} autoComplete="off" />
      <DialogActions>
        <SubmitButton pending={pending} disabled={toggleConfirmDisabled(hydrated, unchanged, lastResult)}>
          Confirm
        </SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}
