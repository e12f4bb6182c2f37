import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { deviceOptionsHtml } from "./header.tsx";
import type { DashboardDevice } from "./model.ts";

const devices: DashboardDevice[] = [
  { id: "cpe-1", name: "Boston <sales> & co", kind: "cpe" },
  { id: "metro-1", name: "Hamburg port DC", kind: "metro" },
  { id: "cpe-2", name: "Paris", kind: "cpe" },
];

describe("deviceOptionsHtml", () => {
  it("writes the picker's options as React writes a select's own: grouped by kind, escaped, the chosen one selected", () => {
    const html = deviceOptionsHtml(devices, "cpe-2");
    const react = renderToStaticMarkup(
      <select defaultValue="cpe-2">
        <optgroup label="Internet NIDs">
          <option value="cpe-1">{"Boston <sales> & co (cpe-1)"}</option>
          <option value="cpe-2">Paris (cpe-2)</option>
        </optgroup>
        <optgroup label="Metro Ethernet NIDs">
          <option value="metro-1">Hamburg port DC (metro-1)</option>
        </optgroup>
      </select>,
    );
    expect(html).toBe(react.replace(/^<select>|<\/select>$/g, ""));
    expect(html).toContain("Boston &lt;sales&gt; &amp; co (cpe-1)");
    expect(html).toContain('<option value="cpe-2" selected="">Paris (cpe-2)</option>');
  });

  it("leaves out a kind with no device, and selects nothing when the chosen one is not listed", () => {
    const html = deviceOptionsHtml(devices.filter((d) => d.kind === "cpe"), "metro-1");
    expect(html).not.toContain("Metro Ethernet NIDs");
    expect(html).not.toContain("selected");
  });
});
