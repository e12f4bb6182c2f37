import type { BenchContext } from "./pages.ts";

/*
 * The screens `npm run bench:phone` measures (bench/phone.ts), in one place: every page of
 * app/routes.ts a browser opens (not the resource routes), with the demo account's own data. The
 * pages taking an id get a real one from the demo data (`path` is then a function of the API).
 * A screen adds its line here.
 */

export interface PhonePage {
  /** PHONE_ONLY=<name>[,<name>…] measures only these (and the shell). */
  name: string;
  /** The path and query, or how to find it through the platform's API (ids from the demo data). */
  path: string | ((ctx: BenchContext) => Promise<string>);
  /** false: measured signed out (the public pages). */
  signedIn?: boolean;
}

/** The shell: the signed-in 404 page (no data, the layout only), as in bench/pages.ts. */
export const shell: PhonePage = { name: "shell", path: "/no-such-page" };

async function firstDevice({ api }: BenchContext): Promise<string> {
  const names = await api<{ cpe: { id: string }[]; metro: { id: string }[] }>("dashboard_get_device_names");
  const id = (names.cpe[0] ?? names.metro[0])?.id;
  if (!id) throw new Error("the demo account has no device");
  return id;
}

/** A demo Internet NID with an outage in the last week (the fleet gives each ~3 a month), and that outage. */
async function outage({ api }: BenchContext): Promise<{ device: string; outage: string }> {
  const cpes = await api<{ cpe_id: string }[]>("get_cpe");
  for (const c of cpes) {
    const history = await api<{ status: string; outage_id: string }[]>(`get_outage_history?node_id=${c.cpe_id}&range=1w`);
    const down = history.find((h) => h.status === "down");
    if (down) return { device: c.cpe_id, outage: down.outage_id };
  }
  throw new Error("no demo device with an outage in the last week");
}

export const phonePages: PhonePage[] = [
  { name: "login", path: "/login", signedIn: false },
  { name: "dashboard", path: "/dashboard" },
  { name: "main-dashboard", path: "/main-dashboard" },
  { name: "main-dashboard-health", path: "/main-dashboard?tab=health" },
  { name: "main-dashboard-utilization", path: "/main-dashboard?tab=utilization" },
  { name: "main-dashboard-visibility", path: "/main-dashboard?tab=visibility" },
  { name: "main-dashboard-performance", path: "/main-dashboard?tab=performance" },
  { name: "main-dashboard-ddos", path: "/main-dashboard?tab=ddos" },
  { name: "main-dashboard-help", path: "/main-dashboard/help" },
  { name: "post-mortem", path: async (ctx) => { const o = await outage(ctx); return `/main-dashboard/post-mortem/${o.outage}?device=${o.device}`; } },
  { name: "outage", path: async (ctx) => `/outages/${(await outage(ctx)).outage}` },
  { name: "routers", path: "/routers" },
  { name: "routers-monitoring", path: async (ctx) => `/routers?selected=${await firstDevice(ctx)}&tab=monitoring&range=1d` },
  { name: "ethernet-devices", path: "/ethernet-devices" },
  { name: "service-nodes", path: "/service-nodes" },
  { name: "service-node-groups", path: "/service-node-groups" },
  { name: "endpoint-nodes", path: "/endpoint-nodes" },
  { name: "endpoint-node-groups", path: "/endpoint-node-groups" },
  { name: "app-services", path: "/app-services" },
  { name: "endpoints", path: "/endpoints" },
  { name: "user-agents", path: "/user-agents" },
  { name: "contacts", path: "/contacts" },
  { name: "entities", path: "/entities" },
  { name: "iam", path: "/iam" },
  { name: "histories", path: "/histories" },
  { name: "support", path: "/support" },
  { name: "operations", path: "/operations" },
  { name: "sla", path: "/sla" },
  { name: "reports", path: "/reports" },
  { name: "pcap-analyzer", path: "/pcap-analyzer" },
  { name: "billing", path: "/billing" },
  { name: "account", path: "/account" },
  { name: "profile", path: "/profile" },
];
