import type { ReactNode } from "react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { deviceIdOf, deviceNameOf, type DeviceDetail } from "./kind.ts";

/* The frame of a device's dialog (both kinds): the dialog by URL, the device it is about, or that it is gone. */

/** The device a dialog is about, or the sentence that it is gone. */
export function DeviceDialog<D extends DeviceDetail>({ name, title, device, children }: { name: string; title: string; device: D | null; children: (device: D) => ReactNode }) {
  return (
    <UrlDialog name={name} title={title}>
      {device ? (
        children(device)
      ) : (
        <>
          <p>This device no longer exists.</p>
          <DialogActions />
        </>
      )}
    </UrlDialog>
  );
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
