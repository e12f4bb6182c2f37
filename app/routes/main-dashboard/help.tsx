import { Link } from "react-router";
import { Screen } from "../../components/screen.tsx";
import { dashboardTabs, type DashboardTab } from "./model.ts";

/*
 * /main-dashboard/help: what each tab of the dashboards shows, one section per tab (`#<tab id>`),
 * the target of the header's info link (spec 3 §2.14 'an info link per tab to help articles').
 */

const TITLE = "Dashboards help";
// Its breadcrumb under Dashboards (issue 63 item 22: it said "Page Not Found").
export const handle = { breadcrumb: TITLE };

const help: Record<DashboardTab, string[]> = {
  map: [
    "The count cards sum up the account: its Internet NIDs and Metro Ethernet NIDs, how many devices are up and down, and its Private Access objects. The entity filter narrows the device counts and the map to one entity's devices.",
    "The map draws every device with a site location: a green circle when up, a red triangle when down, a grey diamond when it has not reported yet. Devices without valid coordinates are listed in the table under the map and counted, not drawn.",
  ],
  health: [
    "Uptime is the share of the time range the WAN link was up; announced maintenance is left out of both the up time and the range.",
    "WAN Link Health (%) falls with packet loss and with round-trip time above the site's usual; it is 0 while the link is down. WAN Link RTT (ms) is the round-trip time to the provider's network; WAN Link Packet Loss Rate (%) the share of probes lost.",
    "Path Visualization compares today's path to the monitored address (Current) with the path at the last outage (Last outage): where the path stopped shows where the failure was. Show lists both traceroutes hop by hop.",
    "Outage History lists each outage's start (down) and end (up) with the device's self-diagnosis; View Analysis opens the post-mortem, which can be downloaded as a PDF.",
    "The Daily Performance Assurance Test measures upload and download once a day at the hour set on the device.",
  ],
  utilization: [
    "Upload/Download Utilization (%) is the traffic as a share of the contracted speed: the average over each interval and its busiest second (peak).",
    "Daily Site Traffic Peak Hour (Mbps) places each day at its busiest hour of the day (UTC); Peak Hour Throughput Trend (Mbps) shows each day's peak over the range.",
  ],
  visibility: [
    "Application Visibility counts the applications seen on the device's link, their visits and bytes, and ranks the top applications by hits and by bytes. It needs App Visibility turned on for the device.",
  ],
  performance: ["Application Performance Insights lists the device's flows with their performance: a flow is not good when its application suffers from the link's loss or delay."],
  ddos: [
    "DDoS Protection Suite maps where the device's traffic comes from and goes to, with the share of malicious addresses, the addresses blocked, the mitigation traffic and the attacks detected or mitigated.",
  ],
};

export default function DashboardsHelp() {
  return (
    <Screen title={TITLE}>
      <p>
        <Link to="/main-dashboard" className="link link-primary">
          Back to the dashboards
        </Link>
      </p>
      {dashboardTabs.map((t) => (
        <section key={t.id} id={t.id} aria-labelledby={`help-${t.id}`} className="card bg-base-100 max-w-3xl scroll-mt-20 shadow-sm">
          <div className="card-body">
            <h2 id={`help-${t.id}`} className="card-title text-xl" tabIndex={-1}>
              {t.label}
            </h2>
            {help[t.id].map((p) => (
              <p key={p}>{p}</p>
            ))}
            <p>
              <Link to={`/main-dashboard?tab=${t.id}`} className="link link-primary">
                Open {t.label}
              </Link>
            </p>
          </div>
        </section>
      ))}
    </Screen>
  );
}
