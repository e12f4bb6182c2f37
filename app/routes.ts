import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

/**
 * One route module per URL; a screen's modules (its resource routes, its parts) share a folder:
 * routes/auth/, routes/account/, routes/pcap-analyzer/.
 */

/** The list screens whose CSV export is `routes/<screen>/export.ts` at `/<screen>/export.csv`. */
const csvExports = ["contacts", "entities", "histories", "iam", "user-agents", "app-services", "endpoints", "support", "reports"];

export default [
  // Public (spec 3 §2.1)
  index("routes/auth/login.tsx", { id: "index-login" }),
  route("login", "routes/auth/login.tsx"),
  route("login-mfa", "routes/auth/login-mfa.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("register", "routes/auth/register.tsx"),
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("reset-password-template", "routes/auth/set-password.tsx", { id: "reset-password-template" }),
  route("new-iam-user-setup-template", "routes/auth/set-password.tsx", { id: "new-iam-user-setup-template" }),
  route("idp-login", "routes/auth/idp-login.tsx"),
  // A report recipient's confirmation link (issue 58): no sign-in.
  route("reports/confirm", "routes/reports/confirm.tsx"),

  // Resource routes
  route("api/v1/*", "routes/api.v1.$.ts"),
  route("healthz", "routes/healthz.ts"),
  route("map/countries-110m.json", "routes/map/countries.ts"),
  route("map/world.svg", "routes/map/world-svg.ts"),
  route("main-dashboard/post-mortem/:outageId/stream", "routes/main-dashboard/post-mortem-stream.ts"),
  route("main-dashboard/post-mortem/:outageId/analysis.pdf", "routes/main-dashboard/post-mortem-pdf.ts"),
  route("preferences", "routes/preferences.ts"),
  route("pcap-analyzer/upload", "routes/pcap-analyzer/upload.ts"),
  route("pcap-analyzer/upload-url", "routes/pcap-analyzer/upload-url.ts"),
  route("pcap-analyzer/report.pdf", "routes/pcap-analyzer/report-pdf.ts"),
  route("pcap-analyzer/sessions.csv", "routes/pcap-analyzer/sessions-csv.ts"),
  route("main-dashboard/flow-report.pdf", "routes/main-dashboard/tab-insights.pdf.ts"),
  ...csvExports.map((screen) => route(`${screen}/export.csv`, `routes/${screen}/export.ts`)),
  route("service-nodes/export.csv", "routes/service-nodes/export.ts"),
  route("endpoint-nodes/export.csv", "routes/endpoint-nodes/export.ts"),
  route("sla/report.pdf", "routes/sla/report-pdf.ts"),
  route("sla/report.csv", "routes/sla/report-csv.ts"),
  route("outages/export.csv", "routes/outages/export.ts"),
  route("reports/:reportId/report.pdf", "routes/reports/report-pdf.ts"),
  route("reports/:reportId/report.csv", "routes/reports/report-csv.ts"),
  route("service-nodes/files/:kind/:file", "routes/service-nodes/files.ts", { id: "service-node-files" }),
  route("devices/:kind/:id/activation-events", "routes/devices-shared/activation-events.ts"),
  route("devices/:kind/:id/activation-report.pdf", "routes/devices-shared/activation-report-pdf.ts"),
  route("routers/diagnostics.json", "routes/devices-shared/diagnostics.ts", { id: "cpe-diagnostics" }),
  route("routers/speed-test-result", "routes/routers/speed-test-result.ts"),
  route("ethernet-devices/diagnostics.json", "routes/devices-shared/diagnostics.ts", { id: "metro-diagnostics" }),
  route("endpoint-nodes/files/:kind/:file", "routes/service-nodes/files.ts", { id: "endpoint-node-files" }),

  // Protected (spec 3 §2.2): the shell layout guards them all.
  layout("routes/_shell.tsx", [
    route("account", "routes/account/account.tsx"),
    route("profile", "routes/account/profile.tsx"),
    route("contacts", "routes/contacts/route.tsx"),
    route("entities", "routes/entities/route.tsx"),
    route("pcap-analyzer", "routes/pcap-analyzer/pcap-analyzer.tsx"),
    route("main-dashboard", "routes/main-dashboard/route.tsx"),
    route("main-dashboard/help", "routes/main-dashboard/help.tsx"),
    route("main-dashboard/post-mortem/:outageId", "routes/main-dashboard/post-mortem.tsx"),
    route("dashboard", "routes/dashboard/route.tsx"),
    route("billing", "routes/billing/route.tsx"),
    route("app-services", "routes/app-services/route.tsx"),
    route("endpoints", "routes/endpoints/route.tsx"),
    route("iam", "routes/iam/route.tsx"),
    route("service-nodes", "routes/service-nodes/route.tsx"),
    route("service-node-groups", "routes/service-node-groups/route.tsx"),
    route("endpoint-nodes", "routes/endpoint-nodes/route.tsx"),
    route("endpoint-node-groups", "routes/endpoint-node-groups/route.tsx"),
    route("user-agents", "routes/user-agents/route.tsx"),
    route("routers", "routes/routers/route.tsx"),
    route("ethernet-devices", "routes/ethernet-devices/route.tsx"),
    route("operations", "routes/operations/route.tsx"),
    route("support", "routes/support/route.tsx"),
    route("histories", "routes/histories/route.tsx"),
    route("sla", "routes/sla/route.tsx"),
    route("reports", "routes/reports/route.tsx"),
    route("outages/:outageId", "routes/outages/route.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
