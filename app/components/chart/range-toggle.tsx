import { useLocation } from "react-router";
import { hrefWith } from "../../lib/url.ts";
import { QueryLink } from "../query-link.tsx";

/*
 * The time-range toggle: the spec's list for the chart, its first entry the default, the choice in
 * the URL (`?range=`). Plain links (no JavaScript needed); the chosen one is `aria-current`.
 */

/** The ranges of spec 2 §9: the node and dashboard charts, and the device dashboards. */
export const CHART_RANGES = ["1h", "3h", "12h", "1d", "3d", "1w"] as const;
export const DEVICE_RANGES = ["1h", "3h", "Day", "Week"] as const;

/** The range the URL asks for, if it is one of the list; else the list's first (the default). */
export function currentRange<const R extends readonly string[]>(params: URLSearchParams, ranges: R, param = "range"): R[number] {
  const v = params.get(param);
  return v !== null && ranges.includes(v) ? v : ranges[0]!;
}

export function RangeToggle({ ranges, current, label = "Time range", param = "range" }: { ranges: readonly string[]; current: string; label?: string; param?: string }) {
  const location = useLocation();
  return (
    <nav aria-label={label} className="chart-range">
      <ul className="join">
        {ranges.map((r) => (
          <li key={r} className="join-item">
            <QueryLink
              href={hrefWith(location, { [param]: r })}
              aria-current={r === current ? "true" : undefined}
              className={`btn btn-sm join-item min-w-11 ${r === current ? "btn-primary" : "btn-outline"}`}
            >
              {r}
            </QueryLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
