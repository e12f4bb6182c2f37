/*
 * The pages `npm run bench` measures (bench/run.ts), one entry each: how to make its data and its
 * URL (`setup`, run once against the started server), and its targets. A screen adds its entry
 * here and nowhere else. Every list screen is here (issue 27 item 19): a list's ratio to the
 * shell is ≥ 0.6 with p99 < 100 ms.
 */

export interface BenchContext {
  base: string;
  /** A JSON call to the platform (/api/v1/<path>) as the demo account: GET without `body`, POST with it; throws on a non-2xx answer. */
  api: <T = Record<string, unknown>>(path: string, body?: unknown) => Promise<T>;
}

export interface BenchPage {
  /** BENCH_ONLY=<name>[,<name>…] measures only these (and the shell). */
  name: string;
  label: string;
  /** Makes the page's data (through the platform's API) and answers its path and query. */
  setup: (ctx: BenchContext) => Promise<string>;
  /** The signed-in browser: the demo account (default) or the 100,000-contact account. */
  as?: "demo" | "big";
  targets: {
    /** Requests per second over the shell's (the signed-in 404 page), measured side by side. */
    ratio: number;
    p99_ms: number;
    /** JavaScript a browser loads for the page, gzip. */
    js_kb?: number;
    /** true: the page must load chart code; false: it must not. */
    chart_code?: boolean;
  };
}

const pad = (i: number) => String(i).padStart(2, "0");

/** `n` calls of `make(i)`, one after another (the platform's rate, not a burst, is what's measured later). */
async function times<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await make(i));
  return out;
}

const list = { ratio: 0.6, p99_ms: 100 };

/** /main-dashboard's tab for the demo account's first device (CPE, else metro), range 1d. */
async function deviceTab({ api }: BenchContext, tab: string): Promise<string> {
  const names = await api<{ cpe: { id: string }[]; metro: { id: string }[] }>("dashboard_get_device_names");
  const id = (names.cpe[0] ?? names.metro[0])?.id;
  if (!id) throw new Error("the demo account has no device");
  return `/main-dashboard?tab=${tab}&device=${encodeURIComponent(id)}&range=1d`;
}

export const pages: BenchPage[] = [
  {
    name: "contacts",
    label: "GET /contacts (55 contacts, 50-row page)",
    setup: async ({ api }) => {
      await times(55, (i) =>
        api("create-contact", {
          first_name: `First${i}`, last_name: `Last${i}`, email: `contact${i}@bench.example`, phone: `+1 555 01${pad(i)}`,
          address: `${i} Main Street`, company_name: "Bench Corp", contact_type: "technical", entity_name: "Headquarters",
        }),
      );
      return "/contacts?size=50";
    },
    targets: { ...list, js_kb: 150, chart_code: false },
  },
  { name: "contacts-100k-first", label: "GET /contacts, 100,000 contacts, first 50-row page", as: "big", setup: async () => "/contacts?size=50", targets: list },
  { name: "contacts-100k-last", label: "GET /contacts, 100,000 contacts, last 50-row page", as: "big", setup: async () => "/contacts?size=50&page=2000", targets: list },
  {
    name: "app-services",
    label: "GET /app-services (50 rows, one selected, Details)",
    setup: async ({ api }) => {
      const made = await times(50, (i) =>
        api<{ app_service_id: string }>("create-app-service", {
          app_service_name: `Bench service ${pad(i)}`, location: "aws", region: "us-east-1",
          cloud_endpoint_service_name: `com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f607${pad(i)}`, port: 443,
        }),
      );
      return `/app-services?size=50&selected=${made[0]!.app_service_id}&tab=details`;
    },
    targets: { ...list, js_kb: 150, chart_code: false },
  },
  { name: "endpoints", label: "GET /endpoints (the demo account's endpoints)", setup: async () => "/endpoints?size=50", targets: list },
  {
    name: "iam",
    label: "GET /iam (30 IAM users)",
    setup: async ({ api }) => {
      await times(30, (i) => api("create-iam-user", { username: `bench${i}@bench.example`, name: `Bench User ${i}`, role: i % 3 ? "readonly" : "admin", entity_name: "Headquarters" }));
      return "/iam?size=50";
    },
    targets: list,
  },
  { name: "entities", label: "GET /entities (the demo account's entities)", setup: async () => "/entities?size=50", targets: list },
  { name: "support", label: "GET /support (the demo account's tickets)", setup: async () => "/support?size=50", targets: list },
  { name: "user-agents", label: "GET /user-agents (the demo account's user agents)", setup: async () => "/user-agents?size=50", targets: list },
  { name: "histories", label: "GET /histories (the demo account's change log)", setup: async () => "/histories?size=50", targets: list },
  {
    name: "service-nodes",
    label: "GET /service-nodes (50 nodes, one selected, Monitoring 1d)",
    setup: async ({ api }) => {
      const { service_node_group_id } = await api<{ service_node_group_id: string }>("create-service-node-group", { service_node_group_name: "Bench nodes" });
      const made = await times(50, (i) =>
        api<{ service_node_id: string }>("create-service-node", { service_node_name: `Bench node ${pad(i)}`, service_node_group_id, new_service_node_group: false }),
      );
      return `/service-nodes?size=50&selected=${made[0]!.service_node_id}&tab=monitoring&range=1d`;
    },
    targets: list,
  },
  { name: "service-node-groups", label: "GET /service-node-groups", setup: async () => "/service-node-groups?size=50", targets: list },
  { name: "endpoint-nodes", label: "GET /endpoint-nodes (the demo account's endpoint nodes)", setup: async () => "/endpoint-nodes?size=50", targets: list },
  { name: "endpoint-node-groups", label: "GET /endpoint-node-groups", setup: async () => "/endpoint-node-groups?size=50", targets: list },
  {
    name: "dashboard",
    label: "GET /dashboard?range=1d (demo account: counts, four charts, their tables)",
    setup: async () => "/dashboard?range=1d",
    targets: { ...list, js_kb: 230, chart_code: true },
  },
  { name: "main-dashboard-map", label: "GET /main-dashboard?tab=map (the demo estate)", setup: async () => "/main-dashboard?tab=map", targets: { ratio: 0.5, p99_ms: 100, js_kb: 280 } },
  {
    name: "main-dashboard-ddos",
    label: "GET /main-dashboard?tab=ddos for one device (three maps, the mitigation chart, two tables)",
    setup: (ctx) => deviceTab(ctx, "ddos"),
    targets: { ratio: 0.5, p99_ms: 100, js_kb: 280, chart_code: true },
  },
  {
    name: "main-dashboard-health",
    label: "GET /main-dashboard?tab=health for one device (uptime, four charts, the path, the outage history)",
    setup: async ({ api }) => {
      const names = await api<{ cpe: { id: string }[]; metro: { id: string }[] }>("dashboard_get_device_names");
      const id = (names.cpe[0] ?? names.metro[0])?.id;
      if (!id) throw new Error("the demo account has no device");
      return `/main-dashboard?tab=health&device=${encodeURIComponent(id)}&range=1d`;
    },
    targets: { ratio: 0.5, p99_ms: 100, js_kb: 280, chart_code: true },
  },
  {
    name: "routers",
    label: "GET /routers (50 Internet NIDs, one selected, Monitoring 1d)",
    setup: async ({ api }) => {
      const made = await times(50, (i) =>
        api<{ cpe_id: string }>("create_cpe", { cpe_name: `Bench NID ${pad(i)}`, prod_code: i % 4 ? "BN-CPE-500" : "BN-CPE-IP", site_address: `${i + 1} Bench Street, Dublin` }),
      );
      return `/routers?size=50&selected=${made[1]!.cpe_id}&tab=monitoring&range=1d`;
    },
    targets: { ...list, js_kb: 230, chart_code: true },
  },
  {
    name: "ethernet-devices",
    label: "GET /ethernet-devices (50 Metro Ethernet NIDs, one selected, Details with its interfaces)",
    setup: async ({ api }) => {
      const products = ["BN-METRO-100", "BN-METRO-1000", "BN-METRO-1000F"];
      const made = await times(50, (i) => api<{ metro_id: string }>("create_metro", { metro_name: `Bench metro ${pad(i)}`, prod_code: products[i % 3], site_address: `${i + 1} Quay, Hamburg` }));
      return `/ethernet-devices?size=50&selected=${made[2]!.metro_id}`;
    },
    targets: { ...list, js_kb: 230 },
  },
];
