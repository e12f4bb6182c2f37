import { isValidElement, type ReactNode } from "react";
import { staticHtml } from "./static-html.ts";

/**
 * A key/value details table (a description list): one row per item, the label beside its value,
 * a dash for a blank value. Used by a screen's Details tab and by report dialogs.
 *
 *   <DetailsTable items={[{ label: "Email", value: contact.email }, { label: "Phone", value: contact.phone }]} />
 */
export interface DetailsItem {
  label: string;
  value: ReactNode;
}

const blank = (value: ReactNode) => value === "" || value === null || value === undefined;

/** Text, numbers and plain HTML elements all the way down: what staticHtml writes as React would. */
function isPlain(node: ReactNode): boolean {
  if (node === null || node === undefined || typeof node === "string" || typeof node === "number" || typeof node === "boolean") return true;
  if (Array.isArray(node)) return node.every(isPlain);
  if (!isValidElement(node) || typeof node.type !== "string") return false;
  const props = node.props as { children?: ReactNode; dangerouslySetInnerHTML?: unknown };
  return props.dangerouslySetInnerHTML === undefined && isPlain(props.children);
}

export function DetailsTable({ items, className = "" }: { items: readonly DetailsItem[]; className?: string }) {
  const rows = items.map((item) => (
    <div key={item.label} className="contents">
      <dt className="font-medium">{item.label}</dt>
      <dd className="min-w-0 wrap-anywhere">{blank(item.value) ? "—" : item.value}</dd>
    </div>
  ));
  // The label column is as wide as its longest label, up to 45 %: on a phone a long label wraps
  // instead of squeezing the values into a sliver.
  const classes = `grid grid-cols-[fit-content(45%)_1fr] gap-x-6 gap-y-1 text-sm ${className}`;
  // Plain values (the usual case) are written as one string: a Details tab of 20 items is ~100
  // elements, which React's renderer spends a millisecond on. Anything else renders as React.
  if (items.every((item) => isPlain(item.value))) return <dl className={classes} dangerouslySetInnerHTML={{ __html: staticHtml(rows) }} />;
  return <dl className={classes}>{rows}</dl>;
}
