/*
 * The App Services screen's shapes and constants (spec 1 §3 AppService, Hosting, Top talker; §5; §9).
 * The shapes are the platform's contract: declared once.
 */
export type { AppService, CloudRegion, Hosting, ServiceNodeGroup, TopTalker } from "../../../platform/contract/app-services.ts";
export type { Endpoint } from "../../../platform/contract/endpoints.ts";
export {
  appServiceDeployments,
  appServiceProtocols,
  protocolLabels,
  sizes,
  topTalkerRanges,
  topTalkerRangeMs,
} from "../../../platform/contract/app-services.ts";
import type { AppServiceDeployment, TopTalker } from "../../../platform/contract/app-services.ts";
import type { Endpoint } from "../../../platform/contract/endpoints.ts";
import { seriesNames } from "../../components/chart/model.ts";
export type { AppServiceDeployment };

/** A top talker with its endpoint's name: the chart's category and the table's first column. */
export interface NamedTalker extends TopTalker {
  /** The endpoint's name; its id where the endpoint is gone; name and id where two endpoints share the name. */
  name: string;
}

/** The talkers named from the app service's endpoints (spec 1's top talker carries only `epid`). */
export function namedTalkers(talkers: readonly TopTalker[], endpoints: readonly Pick<Endpoint, "ep_id" | "ep_name">[]): NamedTalker[] {
  const names = new Map(endpoints.map((e) => [e.ep_id, e.ep_name]));
  const shown = seriesNames(talkers.map((t) => ({ name: names.get(t.epid) || t.epid, id: t.epid })));
  return talkers.map((t, i) => ({ ...t, name: shown[i]! }));
}

export const deploymentLabels: Record<AppServiceDeployment, string> = { aws: "AWS", onprem: "On-prem", azure: "Azure", network: "Network" };

/** The create form's fields, kept in the URL's draft when the deployment changes (../services-shared/draft.ts). */
export const CREATE_FIELDS = [
  "app_service_name",
  "description",
  "region",
  "cloud_endpoint_service_name",
  "proto",
  "port",
  "fqdn",
  "service_node_group_id",
  "real_subnets",
  "address_translation_enabled",
  "virtual_subnet_pools",
  "bgp_enabled",
  "bgp_local_asn",
  "bgp_peer_asn",
  "bgp_peer_ip",
  "open_ai_private_link",
  "private_endpoint_ip_address",
  "azure_user_email",
  "remote_vnet_resource_id",
] as const;
export type CreateField = (typeof CREATE_FIELDS)[number];

export const protoLabel = (p: string) => (p === "ftp" ? "FTP-Passive" : p.toUpperCase());

/** The fields each deployment requires (spec 1 §5); the conditional ones are in missingRequired. */
export const requiredFields: Record<AppServiceDeployment, readonly string[]> = {
  aws: ["app_service_name", "region", "cloud_endpoint_service_name", "port"],
  onprem: ["app_service_name", "fqdn", "service_node_group_id", "proto", "port"],
  azure: ["app_service_name", "proto", "port", "region"],
  network: ["app_service_name", "real_subnets", "service_node_group_id"],
};

/** Required fields by deployment (spec 1 §5), for Create's enabled state with JavaScript. */
export function missingRequired(d: AppServiceDeployment, v: Record<string, string | boolean>): boolean {
  const has = (k: string) => typeof v[k] === "string" && (v[k] as string).trim() !== "";
  if (!requiredFields[d].every(has)) return true;
  // Azure: the private link service id, or with OpenAI/PaaS its three fields.
  if (d === "azure") return v.open_ai_private_link ? !(has("private_endpoint_ip_address") && has("remote_vnet_resource_id") && has("azure_user_email")) : !has("cloud_endpoint_service_name");
  // Network: address translation without pools is fine (the platform uses {ip}/16 of the first subnet); BGP needs its three.
  if (d === "network" && v.bgp_enabled) return !(has("bgp_local_asn") && has("bgp_peer_asn") && has("bgp_peer_ip"));
  return false;
}
