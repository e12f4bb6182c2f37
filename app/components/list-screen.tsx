import type { ComponentProps, ReactNode } from "react";
import { DataTable, SelectionStatus, type DataTableProps } from "./data-table.tsx";
import { useCanWrite } from "./hooks.ts";
import type { MenuItem } from "./row-menu.tsx";
import { Screen } from "./screen.tsx";
import { TableToolbar } from "./table-toolbar.tsx";

/*
 * A list screen (Contacts, IAM, Support, App Services, Endpoints): the page frame (Screen), its
 * DataTable with the toolbar (create for writers, Refresh, Export CSV) and the row menu labelled
 * "Actions for {row}", the selection status with the one selected row's details, then the dialogs.
 *
 *   <ListScreen title="Contacts" error={error} caption="Contacts" columns={columns} page={table} getRowId={getRowId}
 *     rowLabel={contactName} selection="multiple" toolbar={{ createLabel: "Add Contact", exportLink }}
 *     menu={menuItems} plural="contacts" details={selected ? <ContactDetails … /> : null}>
 *     {dialogs}
 *   </ListScreen>
 */

export interface ListScreenProps<T> extends Omit<DataTableProps<T>, "toolbar" | "rowMenu"> {
  /** The h1 (and document title: Screen's `documentTitle`, `error`). */
  title: string;
  documentTitle?: string | null;
  error?: boolean;
  /** TableToolbar's props: `createLabel` (a writer's create button), `refresh`, `exportLink`. */
  toolbar: ComponentProps<typeof TableToolbar>;
  /** The row menu's items (a row without a menu: null), for writers only unless `readableMenu`. */
  menu?: readonly MenuItem[] | ((row: T, canWrite: boolean) => readonly MenuItem[] | null);
  /** A readonly user has a row menu too (its read-only items: `menu` gets canWrite false). */
  readableMenu?: boolean;
  /** The menu's name (default: "Actions for {rowLabel}"). */
  menuLabel?: (row: T) => string;
  /** With selection: "3 {plural} selected." or, one selected, `details`. */
  plural?: string;
  details?: ReactNode;
  /** The dialogs (and whatever follows the list). */
  children?: ReactNode;
}

export function ListScreen<T>({ title, documentTitle, error, toolbar, menu, readableMenu = false, menuLabel, plural, details, children, ...table }: ListScreenProps<T>) {
  const canWrite = useCanWrite();
  const label = menuLabel ?? table.rowLabel;
  const itemsOf = !menu || !(canWrite || readableMenu) ? null : typeof menu === "function" ? (row: T) => menu(row, canWrite) : () => menu;
  return (
    <Screen title={title} documentTitle={documentTitle} error={error}>
      <DataTable
        {...table}
        toolbar={<TableToolbar {...toolbar} />}
        rowMenu={itemsOf ? (row) => {
          const items = itemsOf(row);
          return items ? { label: `Actions for ${label(row)}`, items } : null;
        } : undefined}
      />
      {plural ? (
        <SelectionStatus count={table.page.selected.length} plural={plural}>
          {details}
        </SelectionStatus>
      ) : null}
      {children}
    </Screen>
  );
}
