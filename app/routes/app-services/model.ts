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
import { alwaysRequired, createAppServiceRequired, type AppServiceDeployment, type TopTalker } from "../../../platform/contract/app-services.ts";
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

/** The fields each deployment requires whatever its switches (spec 1 §5: the call's rules, createAppServiceRequired): marked required in Create. */
const alwaysOf = (d: AppServiceDeployment) => ["app_service_name", ...alwaysRequired((on) => createAppServiceRequired(d, on))];
export const requiredFields: Record<AppServiceDeployment, readonly string[]> = { aws: alwaysOf("aws"), onprem: alwaysOf("onprem"), azure: alwaysOf("azure"), network: alwaysOf("network") };

/**
 * Whether a required field is still empty, for Create's enabled state with JavaScript: the call's
 * rules (createAppServiceRequired) with the form's switches. Address translation without pools is
 * fine: the console sends {ip}/16 of the first real subnet (spec 1 §9).
 */
export function missingRequired(d: AppServiceDeployment, v: Record<string, string | boolean>): boolean {
  const has = (k: string) => typeof v[k] === "string" && (v[k] as string).trim() !== "";
  if (!has("app_service_name")) return true;
  return createAppServiceRequired(d, { open_ai_private_link: v.open_ai_private_link === true, bgp_enabled: v.bgp_enabled === true }).some(([f]) => !has(f));
}
