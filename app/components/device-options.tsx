import { derived } from "../lib/derived.ts";
import { staticHtml } from "./static-html.ts";
import type { DashboardDevice } from "../routes/main-dashboard/model.ts";

/*
 * The main dashboard's device picker options as one string of markup (static-html.ts), as a
 * table's rows are: React wrote an account's hundred-odd devices element by element, a third of
 * the elements of a tab's whole page. Below the screen (issue 61 item 4): the markup of a list is
 * remembered by the list (tableRows answers the same array for the same text) and the chosen id,
 * so a view of a tab writes the markup it wrote for the previous view; a search's narrowed list
 * (in the browser, a new array) is written anew.
 */

const GROUPS: { kind: DashboardDevice["kind"]; label: string }[] = [
  { kind: "cpe", label: "Internet NIDs" },
  { kind: "metro", label: "Metro Ethernet NIDs" },
];

function optionsHtml(devices: readonly DashboardDevice[], chosen: string | undefined): string {
  return staticHtml(
    GROUPS.map((g) => {
      const of = devices.filter((d) => d.kind === g.kind);
      return of.length ? (
        <optgroup key={g.kind} label={g.label}>
          {of.map((d) => (
            <option key={d.id} value={d.id} selected={d.id === chosen}>
              {d.name} ({d.id})
            </option>
          ))}
        </optgroup>
      ) : null;
    }),
  );
}

const optionsOfList = new WeakMap<readonly DashboardDevice[], Map<string, string>>();

/** The picker's options by kind, the chosen one `selected` (React marks it so for a <select>'s own options). */
export const deviceOptionsHtml = (devices: readonly DashboardDevice[], chosen: string | undefined): string =>
  derived(optionsOfList, devices, chosen ?? "", () => optionsHtml(devices, chosen));
