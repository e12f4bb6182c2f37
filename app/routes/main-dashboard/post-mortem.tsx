import { data, Link } from "react-router";
import { Screen } from "../../components/screen.tsx";
import { formatTime } from "../../lib/format.ts";
import { requireSession } from "../../lib/session.server.ts";
import { part } from "./feeds.server.ts";
import { markdownHtml } from "./markdown.ts";
import { DEVICE_PARAM } from "./model.ts";
import { MARKDOWN_CLASSES, POST_MORTEM_TITLE, postMortemPdfHref } from "./post-mortem-links.ts";
import type { Route } from "./+types/post-mortem";

/*
 * /main-dashboard/post-mortem/:outageId?device=…: the post-mortem analysis whole, rendered on the
 * server (View Analysis without JavaScript; the outage record links here too), with Download
 * (analysis.pdf) and the way back to WAN Link Health.
 */

// Its breadcrumb under Dashboards (issue 63 item 22: without JavaScript it said "Page Not Found").
export const handle = { breadcrumb: POST_MORTEM_TITLE };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireSession(request);
  const device = new URL(request.url).searchParams.get(DEVICE_PARAM) ?? "";
  const pm = await part(request, "dashboard_get_post_mortem", {
    node_id: device,
    outage_id: params.outageId,
  });
  if (!pm.ok) throw data({ message: pm.error }, { status: 404 });
  return { device, pm: pm.data, html: markdownHtml(pm.data.markdown, 1) };
}

export default function PostMortemPage({ loaderData }: Route.ComponentProps) {
  const { device, pm, html } = loaderData;
  return (
    <Screen title={POST_MORTEM_TITLE}>
      <p className="text-sm">
        Outage {pm.outage_id}: {formatTime(pm.start_time)} to {pm.end_time ? formatTime(pm.end_time) : "now"}.
      </p>
      <div className="flex flex-wrap gap-2">
        <a href={postMortemPdfHref(device, pm.outage_id)} download="analysis.pdf" className="btn btn-primary btn-sm">
          Download
        </a>
        <Link to={`/main-dashboard?tab=health&${DEVICE_PARAM}=${encodeURIComponent(device)}`} className="btn btn-outline btn-sm">
          Back to WAN Link Health
        </Link>
      </div>
      <article className={`rounded-box bg-base-100 max-w-4xl p-4 shadow-sm ${MARKDOWN_CLASSES}`} data-testid="post-mortem-text" dangerouslySetInnerHTML={{ __html: html }} />
    </Screen>
  );
}
