import { Suspense, type ReactNode } from "react";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";

/*
 * The device screens' dialogs are code a list view never runs (their forms and the form kit, the
 * activation test's event stream): in the browser they load when a dialog opens; the server draws
 * them as before (lazyChart), so a dialog opened by URL is in the HTML, with or without
 * JavaScript. A screen renders its dialogs (these and its own, made the same way) inside
 * <DialogsBoundary>: it stays mounted, so a dialog opened on the client waits for its code in the
 * navigation's transition and then shows, without a blank step.
 */

export const DeviceDialogs = lazyChart(() => import("./dialogs.tsx").then((m) => m.DeviceDialogs));
export const ActivationDialogs = lazyChart(() => import("./activation.tsx").then((m) => m.ActivationDialogs));

/** The dialogs' Suspense boundary: `children` (the dialogs) only while a dialog is open. */
export function DialogsBoundary({ dialog, children }: { dialog: string | null; children: ReactNode }) {
  return <Suspense fallback={null}>{dialog ? children : null}</Suspense>;
}
