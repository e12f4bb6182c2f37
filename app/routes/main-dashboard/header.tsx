import { useState } from "react";
import { Form, Link } from "react-router";
import { RangeToggle } from "../../components/chart/range-toggle.tsx";
import { useHydrated } from "../../components/hooks.ts";
import { deviceOptionsHtml } from "../../components/device-options.tsx";
import { tableRows, type RowsJson } from "../../lib/table-rows.ts";
import { RefreshButton } from "../../components/table-toolbar.tsx";
import { DASHBOARD_RANGES, DEVICE_PARAM, helpHref, tabLabel, type DashboardDevice, type DashboardRange, type DashboardTab } from "./model.ts";

/*
 * The header tabs 2–6 share (spec 3 §2.14): the device picker (a GET form: a plain select and
 * Apply without JavaScript; with it, a search field narrows the select's options and a choice
 * applies at once), the tab's info link to its help section, Refresh, and the time range. The
 * device and the range are in the URL, so every tab link keeps them.
 */

function DevicePickerForm({ tab, range, devices, device }: { tab: DashboardTab; range: DashboardRange; devices: DashboardDevice[]; device: DashboardDevice | null }) {
  const hydrated = useHydrated();
  const [query, setQuery] = useState("");
  const q = query.trim().toLowerCase();
  const shown = q ? devices.filter((d) => d.name.toLowerCase().includes(q) || d.id.toLowerCase().includes(q) || d.id === device?.id) : devices;
  return (
    // min-w-0 max-w-full: the form is a flex item of the card, sized by its content (the select's longest option) unless held to the card.
    <Form method="get" className="flex min-w-0 max-w-full flex-wrap items-end gap-2" aria-label="Choose a device" preventScrollReset>
      <input type="hidden" name="tab" value={tab} />
      <input type="hidden" name="range" value={range} />
      {/* The search works with JavaScript only; before hydration its place is kept (invisible,
          disabled) so that nothing below moves when it appears (CLS, issue 60), and without
          JavaScript it takes none (`js-only`: display none inside <noscript>, app/root.tsx). */}
      <label className={`flex flex-col gap-1 text-sm${hydrated ? "" : " invisible js-only"}`} htmlFor="dashboard-device-search">
        <span className="font-semibold">Search devices</span>
        <input
          id="dashboard-device-search"
          type="search"
          className="input input-sm w-48 max-w-full"
          value={query}
          disabled={!hydrated}
          onChange={(e) => setQuery(e.currentTarget.value)}
          aria-describedby="dashboard-device-count"
          autoComplete="off"
        />
      </label>
      {/* The label has the width (capped by the form's): a select sized by its longest option overflowed a phone's card. */}
      <label className="flex w-72 max-w-full min-w-0 flex-col gap-1 text-sm" htmlFor="dashboard-device">
        <span className="font-semibold">Device</span>
        {/* The options as one string of markup (components/device-options.tsx). */}
        <select
          id="dashboard-device"
          name={DEVICE_PARAM}
          defaultValue={device?.id ?? ""}
          key={`${device?.id ?? ""} ${q}`}
          className="select select-sm w-full"
          onChange={hydrated ? (e) => e.currentTarget.form?.requestSubmit() : undefined}
          dangerouslySetInnerHTML={{ __html: deviceOptionsHtml(shown, device?.id) }}
        />
      </label>
      {hydrated ? (
        <span id="dashboard-device-count" className="sr-only" aria-live="polite">
          {shown.length} of {devices.length} devices
        </span>
      ) : null}
      <button type="submit" className="btn btn-sm btn-primary">
        Apply
      </button>
    </Form>
  );
}

export function DeviceHeader({
  tab,
  range,
  devices,
  device,
  error,
}: {
  tab: DashboardTab;
  range: DashboardRange;
  /** The account's devices as JSON text (lib/dashboard-reads.server.ts). */
  devices: RowsJson<DashboardDevice>;
  device: DashboardDevice | null;
  error: string | null;
}) {
  const list = tableRows({ rows: devices });
  return (
    <div className="rounded-box bg-base-100 flex flex-wrap items-end gap-x-4 gap-y-3 p-4 shadow-sm">
      {list.length ? <DevicePickerForm tab={tab} range={range} devices={list} device={device} /> : null}
      <div className="flex flex-wrap items-center gap-2 sm:ml-auto">
        <Link to={helpHref(tab)} className="btn btn-ghost btn-sm">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="12" cy="12" r="10" />
            <path d="M12 16v-5M12 8h.01" strokeLinecap="round" />
          </svg>
          <span>
            Info<span className="sr-only"> about {tabLabel(tab)}</span>
          </span>
        </Link>
        <RefreshButton />
        <RangeToggle ranges={DASHBOARD_RANGES} current={range} />
      </div>
      {error ? <p className="text-error w-full">{error}</p> : null}
    </div>
  );
}

/** What a device tab shows when the account has no device to choose. */
export function NoDevice() {
  return (
    <div className="rounded-box bg-base-100 p-4 shadow-sm">
      <h2 className="text-xl font-semibold">No devices yet</h2>
      <p className="mt-2">
        This tab shows one device at a time. Add one on{" "}
        <Link to="/routers" className="link link-primary">
          Internet NIDs
        </Link>{" "}
        or{" "}
        <Link to="/ethernet-devices" className="link link-primary">
          Metro Ethernet NIDs
        </Link>
        , then choose it here.
      </p>
    </div>
  );
}
