import type { SubmissionResult } from "@conform-to/react";
import type { ComponentType, ReactNode } from "react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, HiddenFields, SubmitButton, useForm } from "../../components/forms.tsx";
import { useConstraint, useIsPending } from "../../components/hooks.ts";
import { deviceIdOf, deviceNameOf, type DeviceDetail } from "./kind.ts";
import { goneMessages } from "../../lib/messages.ts";

/* The frame of a device's dialog (both kinds): the dialog by URL, the device it is about, or that it is gone. */

/** The device a dialog is about, or the sentence that it is gone. */
export function DeviceDialog<D extends DeviceDetail>({
  name,
  title,
  size,
  device,
  children,
}: {
  name: string;
  title: string;
  size?: "md" | "lg";
  device: D | null;
  children: (device: D) => ReactNode;
}) {
  return (
    <UrlDialog name={name} title={title} size={size}>
      {device ? (
        children(device)
      ) : (
        <>
          <p>{goneMessages.device}</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
}

/**
 * The dialog `name` around `Form`, a form for one device: the form gets the dialog's props with the
 * device known (its hooks run only then), a form of its own per device; a device that is gone gets
 * DeviceDialog's sentence.
 *
 *   const ShippingDialog = deviceFormDialog("shipping", "Track Shipping", ShippingForm);
 */
export function deviceFormDialog<P extends { device: DeviceDetail }>(name: string, title: string, Form: ComponentType<P>, size?: "md" | "lg") {
  return function DeviceFormDialog(props: Omit<P, "device"> & { device: P["device"] | null }) {
    return (
      <DeviceDialog name={name} title={title} size={size} device={props.device}>
        {/* why the cast: the props with the device in place are P; TypeScript cannot see that through Omit */}
        {(device) => <Form key={deviceIdOf(device)} {...({ ...props, device } as unknown as P)} />}
      </DeviceDialog>
    );
  };
}

/** The form of the device's dialog `name` (its constraints are the intent's): its id carries the device's, so switching devices starts afresh. */
export function useDeviceForm(name: string, device: DeviceDetail, lastResult: SubmissionResult<string[]> | null | undefined, defaultValue?: Record<string, string>) {
  return useForm<Record<string, string>>({ id: `${name}-${deviceIdOf(device)}`, lastResult, constraint: useConstraint(name), defaultValue });
}

/** "For {name} ({id})": which device a dialog changes. */
export function DeviceLine({ device, children }: { device: DeviceDetail; children?: ReactNode }) {
  return (
    <p className="mb-2 wrap-anywhere">
      <strong>{deviceNameOf(device)}</strong> <span className="text-base-content/70 text-sm">({deviceIdOf(device)})</span>
      {children ? <> {children}</> : null}
    </p>
  );
}

/** A device form's Cancel and submit button; the button waits while the form's intent is sent. */
export function DeviceFormActions({ intent, children }: { intent: string; children: ReactNode }) {
  return (
    <DialogActions>
      <SubmitButton pending={useIsPending({ intent })}>{children}</SubmitButton>
    </DialogActions>
  );
}

/**
 * A confirmation of something a device cannot undo by itself (Reset Device, Stop Service): the
 * device named with what happens to it, the question, Cancel and the danger button.
 */
export function DeviceConfirmForm({ intent, fields, device, consequence, question, action }: { intent: string; fields: Record<string, string>; device: DeviceDetail; consequence: ReactNode; question: string; action: string }) {
  const pending = useIsPending({ intent });
  return (
    <ConformFreeForm intent={intent} fields={fields}>
      <DeviceLine device={device}>{consequence}</DeviceLine>
      <p>{question}</p>
      <DialogActions>
        <SubmitButton className="btn btn-error" pending={pending}>
          {action}
        </SubmitButton>
      </DialogActions>
    </ConformFreeForm>
  );
}

/** A form without fields to check (a plain confirmation: Reset Device, Stop Service): the kit's form with no reply to show. */
export function ConformFreeForm({ intent, fields, children }: { intent: string; fields: Record<string, string>; children: ReactNode }) {
  const [form] = useForm({ id: `${intent}-${Object.values(fields).join("-")}` });
  return (
    <ConformForm form={form} intent={intent}>
      <HiddenFields fields={fields} />
      {children}
    </ConformForm>
  );
}
