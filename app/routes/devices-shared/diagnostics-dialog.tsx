import { DialogActions } from "../../components/dialog.tsx";
import { useHydrated } from "../../components/hooks.ts";
import { showToast } from "../../components/toaster.tsx";
import { deviceMessages } from "../../../platform/contract/devices.ts";
import { DeviceDialog, DeviceLine } from "./device-dialog.tsx";
import type { DeviceDialogData } from "./dialog-data.server.ts";
import { deviceIdOf, deviceKinds, type DeviceDetail, type DeviceKind } from "./kind.ts";

/** Get Diagnostics: the device's diagnostics as a JSON file (spec 3 §5, §8). Only reads. */
export function DiagnosticsDialog({ kind, device, diagnostics }: { kind: DeviceKind; device: DeviceDetail | null; diagnostics: DeviceDialogData["diagnostics"] }) {
  const hydrated = useHydrated();
  return (
    <DeviceDialog name="diagnostics" title="Get Diagnostics" device={device}>
      {(d) => {
        const text = diagnostics?.text ?? "";
        const id = deviceIdOf(d);
        return (
          <>
            <DeviceLine device={d} />
            {diagnostics?.error ? (
              <p role="alert" className="text-error">
                {diagnostics.error}
              </p>
            ) : text ? (
              <>
                <p role="status">{deviceMessages.diagnostics}</p>
                <details className="mt-2">
                  <summary className="cursor-pointer">Show the diagnostics</summary>
                  <pre className="bg-base-200 mt-2 max-h-80 overflow-y-auto rounded p-2 text-xs break-all whitespace-pre-wrap" tabIndex={0}>
                    {prettyJson(text)}
                  </pre>
                </details>
              </>
            ) : (
              <p role="status">{deviceMessages.noDiagnostics}</p>
            )}
            <DialogActions cancelLabel="Close">
              {text && !diagnostics?.error ? (
                <a
                  href={`${deviceKinds[kind].path}/diagnostics.json?id=${encodeURIComponent(id)}`}
                  download={`diagnostics-${id}.json`}
                  className="btn btn-primary"
                  onClick={hydrated ? () => showToast({ type: "success", message: deviceMessages.downloaded }) : undefined}
                >
                  Download
                </a>
              ) : null}
            </DialogActions>
          </>
        );
      }}
    </DeviceDialog>
  );
}

function prettyJson(text: string) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
