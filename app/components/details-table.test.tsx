import { renderToString } from "react-dom/server";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { DetailsTable } from "./details-table.tsx";

/** What React itself writes for the same items (the markup the string form must equal). */
function Reference({ items }: { items: { label: string; value: React.ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-[fit-content(45%)_1fr] gap-x-6 gap-y-1 text-sm ">
      {items.map((item) => (
        <div key={item.label} className="contents">
          <dt className="font-medium">{item.label}</dt>
          <dd className="min-w-0 wrap-anywhere">{item.value === "" || item.value === null || item.value === undefined ? "—" : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Counter() {
  const [n] = useState(3);
  return <span>{n} items</span>;
}

describe("DetailsTable", () => {
  it("writes plain values as one string, byte for byte what React writes, escaped", () => {
    const items = [
      { label: "Name", value: `<script>alert("x")</script> & 'co'` },
      { label: "Port", value: 443 },
      { label: "Blank", value: "" },
      { label: "Missing", value: null },
      { label: "Created at", value: <time dateTime="2026-11-24T05:00:00.000Z">2026-11-24 05:00 UTC</time> },
      { label: "Code", value: <code className="text-xs">as-1</code> },
    ];
    const html = renderToString(<DetailsTable items={items} />);
    // The same up to attribute-name case, which HTML ignores (React keeps `dateTime`).
    expect(html).toBe(renderToString(<Reference items={items} />).replace("dateTime=", "datetime="));
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toContain("<dd class=\"min-w-0 wrap-anywhere\">—</dd>");
  });

  it("renders a value that is a component (hooks) with React", () => {
    const items = [
      { label: "Name", value: "a" },
      { label: "Count", value: <Counter /> },
    ];
    const html = renderToString(<DetailsTable items={items} />);
    expect(html).toBe(renderToString(<Reference items={items} />));
    expect(html).toContain("<span>3<!-- --> items</span>");
  });
});
