import type { ReactNode } from "react";
import { ListScreen, type ListScreenProps } from "../../components/list-screen.tsx";
import type { ActivationDialogData } from "./activation.server.ts";
import type { DeviceDialogData } from "./dialog-data.server.ts";
import type { DeviceDialogsProps } from "./dialogs.tsx";
import { EntityFilter } from "./entity-filter.tsx";
import { deviceIdOf, deviceNameOf, type DeviceKind } from "./kind.ts";
import { ActivationDialogs, DeviceDialogs, DialogsBoundary } from "./lazy-dialogs.tsx";

/*
 * A device list screen (Internet NIDs, Metro Ethernet NIDs; spec 3 §2.10, §2.11): the kit's
 * ListScreen with the entity filter in the toolbar, and after the list the dialogs both kinds
 * share (devices-shared/dialogs.tsx) and the activation test's; the screen's own dialogs follow
 * as children. All of them load in the browser only when one opens (lazy-dialogs.tsx).
 */

export interface DeviceScreenProps<T> extends Omit<ListScreenProps<T>, "toolbar"> {
  kind: DeviceKind;
  entities: readonly string[];
  entity: string | null;
  /** The open dialog (useScreen's), the loader's deviceDialogData and activationDialogData, the action's data and reply. */
  dialog: string | null;
  deviceDialog: DeviceDialogData;
  activation: ActivationDialogData;
  actionData: unknown;
  lastResult: DeviceDialogsProps["lastResult"];
  children?: ReactNode;
}

export function DeviceScreen<T>({ kind, entities, entity, dialog, deviceDialog, activation, actionData, lastResult, children, ...list }: DeviceScreenProps<T>) {
  const device = deviceDialog.device;
  return (
    <ListScreen {...list} toolbar={{ children: <EntityFilter entities={entities} current={entity} /> }}>
      <DialogsBoundary dialog={dialog}>
        <DeviceDialogs kind={kind} dialog={dialog} data={deviceDialog} actionData={actionData} lastResult={lastResult} />
        <ActivationDialogs kind={kind} dialog={dialog} device={device ? { id: deviceIdOf(device), name: deviceNameOf(device) } : null} data={activation} lastResult={lastResult} />
        {children}
      </DialogsBoundary>
    </ListScreen>
  );
}
