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
import type { AppServiceDeployment } from "../../../platform/contract/app-services.ts";
export type { AppServiceDeployment };

export const deploymentLabels: Record<AppServiceDeployment, string> = { aws: "AWS", onprem: "On-prem", azure: "Azure", network: "Network" };

export const protoLabel = (p: string) => (p === "ftp" ? "FTP-Passive" : p.toUpperCase());

/** Required fields by deployment (spec 1 §5), for Create's enabled state with JavaScript. */
export function missingRequired(d: AppServiceDeployment, v: Record<string, string | boolean>): boolean {
  const has = (k: string) => typeof v[k] === "string" && (v[k] as string).trim() !== "";
  if (!has("app_service_name")) return true;
  switch (d) {
    case "aws":
      return !(has("region") && has("cloud_endpoint_service_name") && has("port"));
    case "onprem":
      return !(has("fqdn") && has("service_node_group_id") && has("proto") && has("port"));
    case "azure":
      if (!(has("proto") && has("port") && has("region"))) return true;
      return v.open_ai_private_link
        ? !(has("private_endpoint_ip_address") && has("remote_vnet_resource_id") && has("azure_user_email"))
        : !has("cloud_endpoint_service_name");
    case "network":
      if (!(has("real_subnets") && has("service_node_group_id"))) return true;
      // Address translation without pools is fine: the platform uses {ip}/16 of the first subnet.
      if (v.bgp_enabled && !(has("bgp_local_asn") && has("bgp_peer_asn") && has("bgp_peer_ip"))) return true;
      return false;
  }
}
