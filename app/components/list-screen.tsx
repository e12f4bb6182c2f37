import type { ComponentProps, ReactNode } from "react";
import { createHint, DataTable, SelectionStatus, type DataTableProps, type RowMenuSpec } from "./data-table.tsx";
import { useCanWrite } from "./hooks.ts";
import type { MenuItem } from "./row-menu.tsx";
import { Screen } from "./screen.tsx";
import { TableToolbar } from "./table-toolbar.tsx";

/*
 * A list screen (Contacts, IAM, Support, App Services, Endpoints): the page frame (Screen), its
 * DataTable with the toolbar (create for writers, Refresh, Export CSV) and the row menu labelled
 * "Actions for {row}", the selection status with the one selected row's details, then the dialogs.
 *
 * What never changes between requests is the screen's definition, written once beside its columns
 * (columns.ts) with `defineListScreen`; the route component passes only what the loader and the
 * action decide:
 *
 *   // columns.ts
 *   export const screen = defineListScreen<Contact>({ title: "Contacts", caption: "Contacts", columns, getRowId,
 *     rowLabel: contactName, selection: "multiple", plural: "contacts", createLabel: "Add Contact",
 *     menu: [{ label: "Update Contact", dialog: "update" }, …] });
 *   // route.tsx
 *   <ListScreen screen={screen} page={table} error={error} toolbar={{ exportLink }}
 *     details={selected ? <ContactDetails … /> : null}>
 *     {dialogs}
 *   </ListScreen>
 */

/** The constant half of a list screen: its texts, columns and row identity. */
export interface ListScreenDef<T> extends Omit<DataTableProps<T>, "toolbar" | "rowMenu" | "page"> {
  /** The h1 (and document title). */
  title: string;
  /** The writer's create button ("Add Contact"; it opens `?dialog=create`). */
  createLabel?: string;
  /** Refresh in the toolbar. */
  refresh?: boolean;
  /** A readonly user has a row menu too (its read-only items: `menu` gets canWrite false). */
  readableMenu?: boolean;
  /** The menu's name (default: "Actions for {rowLabel}"). */
  menuLabel?: (row: T) => string;
  /** With selection: "3 {plural} selected." or, one selected, `details`. */
  plural?: string;
  /** The row menu when it is the same for every request (the route's `menu` prop wins). */
  menu?: RowMenuItems<T>;
}

/** A row menu's items (a row without a menu: null), for writers only unless `readableMenu`. */
type RowMenuItems<T> = readonly MenuItem[] | ((row: T, canWrite: boolean) => readonly MenuItem[] | null);

/*
 * The table's rowMenu, one function per (menu, label, canWrite): the same function on every render
 * when the menu is the screen's (a module's constant), so that DataTable's rows memo recognises the
 * rows' markup. Weakly held: a menu made on each render is forgotten with it.
 */
type RowMenuFn<T> = (row: T) => RowMenuSpec | null;
const rowMenus = new WeakMap<object, WeakMap<object, [RowMenuFn<never> | undefined, RowMenuFn<never> | undefined]>>();

function rowMenuOf<T>(menu: RowMenuItems<T>, label: (row: T) => string, canWrite: boolean): RowMenuFn<T> {
  let byLabel = rowMenus.get(menu);
  if (!byLabel) rowMenus.set(menu, (byLabel = new WeakMap()));
  let pair = byLabel.get(label);
  if (!pair) byLabel.set(label, (pair = [undefined, undefined]));
  const slot = canWrite ? 0 : 1;
  // why: the slot was made for this menu and label, whose row type is T.
  const known = pair[slot] as RowMenuFn<T> | undefined;
  if (known) return known;
  const made: RowMenuFn<T> = (row) => {
    const items = typeof menu === "function" ? menu(row, canWrite) : menu;
    return items ? { label: `Actions for ${label(row)}`, items } : null;
  };
  pair[slot] = made;
  return made;
}

/** A list screen's definition (an identity function: it types the row once for all its parts). */
export const defineListScreen = <T,>(def: ListScreenDef<T>): ListScreenDef<T> => def;

export interface ListScreenProps<T> {
  screen: ListScreenDef<T>;
  /** From the loader: fetchTablePage's page. */
  page: DataTableProps<T>["page"];
  /** Screen's `documentTitle` (default: the title) and `error` ("Error:" prefix). */
  documentTitle?: string | null;
  error?: boolean;
  /** More of TableToolbar's props: `exportLink`, `children` (buttons after the create button). */
  toolbar?: Omit<ComponentProps<typeof TableToolbar>, "createLabel" | "refresh">;
  /** The row menu's items when they depend on the loader's data (else the definition's `menu`). */
  menu?: RowMenuItems<T>;
  /** The one selected row's details (with `plural`). */
  details?: ReactNode;
  /** The dialogs (and whatever follows the list). */
  children?: ReactNode;
}

export function ListScreen<T>({ screen, page, documentTitle, error, toolbar, menu: pageMenu, details, children }: ListScreenProps<T>) {
  const { title, createLabel, refresh, readableMenu = false, menuLabel, plural, menu: screenMenu, ...table } = screen;
  const menu = pageMenu ?? screenMenu;
  const canWrite = useCanWrite();
  const label = menuLabel ?? table.rowLabel;
  return (
    <Screen title={title} documentTitle={documentTitle} error={error}>
      <DataTable
        {...table}
        page={page}
        emptyHint={table.emptyHint ?? createHint(createLabel, canWrite)}
        toolbar={<TableToolbar createLabel={createLabel} refresh={refresh} {...toolbar} />}
        rowMenu={menu && (canWrite || readableMenu) ? rowMenuOf(menu, label, canWrite) : undefined}
      />
      {plural ? (
        <SelectionStatus count={page.selected.length} plural={plural}>
          {details}
        </SelectionStatus>
      ) : null}
      {children}
    </Screen>
  );
}
