import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { hrefWith } from "../../lib/url.ts";
import { QueryLink } from "../query-link.tsx";

/*
 * 'Show data' opened by URL, like the console's dialogs (`?data=<chart id>`): a plain link that
 * works without JavaScript; the server renders that one chart's full table (every object: too
 * big to put in every page view) and the link becomes 'Hide data'. The link says whether the
 * table is shown (aria-expanded) and which region it controls; the open table gets the focus
 * (with JavaScript) and the URL's fragment scrolls to it (both ways).
 *
 *   loader: const table = params.get("data") === id ? chartTableHtml({ title, unit, series, time }) : null;
 *   <Chart spec={prepared} figureId={id} data={<ChartDataLink id={id} title={title} table={table} />} />
 */

export const DATA_PARAM = "data";

export function ChartDataLink({ id, title, table }: { id: string; title: string; table: string | null }) {
  const location = useLocation();
  const regionId = `${id}-data`;
  const region = useRef<HTMLDivElement>(null);
  const open = table !== null;
  useEffect(() => {
    if (open) region.current?.focus();
  }, [open]);
  const linkClass = "w-fit text-sm underline";
  if (!open) {
    return (
      <p className="mt-2">
        <QueryLink href={`${hrefWith(location, { [DATA_PARAM]: id })}#${regionId}`} aria-expanded="false" className={linkClass}>
          Show data
        </QueryLink>
      </p>
    );
  }
  return (
    <div className="chart-data mt-2">
      <QueryLink href={`${hrefWith(location, { [DATA_PARAM]: null })}#${id}`} aria-expanded="true" aria-controls={regionId} className={linkClass}>
        Hide data
      </QueryLink>
      {/* A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable). */}
      <div id={regionId} ref={region} className="kit-table-wrap max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label={`${title}: the data`}>
        <table className="kit-table table table-sm mt-2 tabular-nums" dangerouslySetInnerHTML={{ __html: table }} />
      </div>
    </div>
  );
}
