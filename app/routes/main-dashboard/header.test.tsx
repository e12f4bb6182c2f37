import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { describe, expect, it } from "vitest";
import { rowsJson } from "../../lib/table-rows.ts";
import { deviceOptionsHtml } from "../../components/device-options.tsx";
import { DeviceHeader } from "./header.tsx";
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

/** The header of the health tab on the server, inside a data router (its picker is a <Form>), for the devices as JSON text. */
function headerHtml(text: string, device: DashboardDevice | null) {
  const Header = () => (
    <AuthenticityTokenProvider token="tok.sig">
      <DeviceHeader tab="health" range="1d" devices={text} device={device} error={null} />
    </AuthenticityTokenProvider>
  );
  const Stub = createRoutesStub([{ path: "/main-dashboard", Component: Header }]);
  return renderToStaticMarkup(<Stub initialEntries={["/main-dashboard?tab=health"]} />);
}

describe("DeviceHeader", () => {
  it("reads the devices from their JSON text and writes the options the list would, the chosen one selected", () => {
    const text = rowsJson(devices);
    const html = headerHtml(text, devices[2]!);
    expect(html).toContain(deviceOptionsHtml(devices, "cpe-2"));
    // Another choice in the same list is its own markup, not the one remembered for the first.
    const other = headerHtml(text, devices[1]!);
    expect(other).toContain('<option value="metro-1" selected="">Hamburg port DC (metro-1)</option>');
    expect(other).not.toContain('<option value="cpe-2" selected="">');
  });

  it("offers no picker when the account has no device", () => {
    expect(headerHtml(rowsJson<DashboardDevice>([]), null)).not.toContain("<select");
  });
});
