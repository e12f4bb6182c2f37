/*
 * The Service Nodes screen's shapes and constants (spec 2 §2 /service-nodes, §3 Service node, §9).
 * The form schemas are in node-schemas.server.ts (zod stays out of the browser).
 */
export type { ServiceNode, ServiceNodeDetail, ServiceNodeAppService, ServiceNodeEndpoint } from "../../../platform/contract/nodes.ts";

export const SERVICE_NODE_TABS = [
  { id: "details", label: "Details" },
  { id: "app-services", label: "App Services" },
  { id: "endpoints", label: "Connected Endpoints" },
  { id: "monitoring", label: "Monitoring" },
] as const;
