import { h, type StaticNode } from "./cell.ts";
import { BoundedMemo } from "../lib/bounded-memo.ts";

/*
 * The op-state dot (spec 1 §4): "up" is a green dot, any other value a red dot, and a missing
 * value shows 'N/A' without a dot. The value is always written next to the dot (colour is never
 * the only signal), and `label` gives screen readers the context ("Op state: up").
 */
export function OpState({ value, label = "Op state" }: { value: string | null | undefined; label?: string }) {
  if (value === null || value === undefined || value === "") {
    return (
      <span>
        <span className="sr-only">{label}: </span>N/A
      </span>
    );
  }
  const up = value.toLowerCase() === "up";
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${up ? "bg-success" : "bg-error"}`} />
      <span className="sr-only">{label}: </span>
      {value}
    </span>
  );
}

/** The same dot as table-cell markup (cells are `h()` markup, not JSX: app/components/cell.ts). */
export function opStateCell(value: string | null | undefined, label = "Op state"): StaticNode {
  if (value === null || value === undefined || value === "") return h("span", null, h("span", { class: "sr-only" }, `${label}: `), "N/A");
  const up = value.toLowerCase() === "up";
  return h(
    "span",
    { class: "inline-flex items-center gap-1.5" },
    h("span", { "aria-hidden": "true", class: `inline-block h-2.5 w-2.5 rounded-full ${up ? "bg-success" : "bg-error"}` }),
    h("span", { class: "sr-only" }, `${label}: `),
    value,
  );
}

// The states are a handful of values ("up", "down", …): their markup is made once, not per row.
const adminOpCache = new BoundedMemo<string, StaticNode>({ maxEntries: 64 });

/** "Admin / Op" in one cell: the admin state, a slash, then the op-state dot (spec 1 §4). */
export function adminOpStateCell(admin: string | null | undefined, op: string | null | undefined): StaticNode {
  return adminOpCache.remember(`${admin ?? ""}\u0000${op ?? ""}`, () => adminOpStateMarkup(admin, op));
}

function adminOpStateMarkup(admin: string | null | undefined, op: string | null | undefined): StaticNode {
  return h(
    "span",
    { class: "inline-flex flex-wrap items-center gap-x-1" },
    h("span", null, h("span", { class: "sr-only" }, "Admin state: "), admin || "N/A"),
    h("span", { "aria-hidden": "true" }, "/"),
    opStateCell(op),
  );
}
