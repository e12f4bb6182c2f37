import type { ReactNode } from "react";

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

export function DetailsTable({ items, className = "" }: { items: readonly DetailsItem[]; className?: string }) {
  return (
    <dl className={`grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm ${className}`}>
      {items.map((item) => (
        <div key={item.label} className="contents">
          <dt className="font-medium">{item.label}</dt>
          <dd className="min-w-0 wrap-anywhere">{item.value === "" || item.value === null || item.value === undefined ? "—" : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
