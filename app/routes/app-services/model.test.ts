import { describe, expect, it } from "vitest";
import { missingRequired } from "./model.ts";

describe("missingRequired (Create's enabled state, spec 1 §5)", () => {
  const network = { app_service_name: "Branch LAN", real_subnets: "10.20.1.0/24", service_node_group_id: "sng-1" };

  it("network: address translation needs no pools (the platform defaults to {ip}/16)", () => {
    expect(missingRequired("network", { ...network, address_translation_enabled: true, virtual_subnet_pools: "" })).toBe(false);
  });

  it("network: BGP needs both ASNs and the peer IP", () => {
    expect(missingRequired("network", { ...network, bgp_enabled: true, bgp_local_asn: "65001", bgp_peer_asn: "", bgp_peer_ip: "192.0.2.1" })).toBe(true);
    expect(missingRequired("network", { ...network, bgp_enabled: true, bgp_local_asn: "65001", bgp_peer_asn: "4200000000", bgp_peer_ip: "192.0.2.1" })).toBe(false);
  });

  it("aws: region, endpoint service name and port", () => {
    expect(missingRequired("aws", { app_service_name: "CRM", region: "us-east-1", cloud_endpoint_service_name: "x", port: "" })).toBe(true);
    expect(missingRequired("aws", { app_service_name: "CRM", region: "us-east-1", cloud_endpoint_service_name: "x", port: "443" })).toBe(false);
  });

  it("azure with the OpenAI/PaaS option needs its three fields instead of the private link service id", () => {
    const azure = { app_service_name: "ERP", proto: "tcp", port: "443", region: "westeurope", open_ai_private_link: true };
    expect(missingRequired("azure", azure)).toBe(true);
    expect(missingRequired("azure", { ...azure, private_endpoint_ip_address: "10.0.0.4", remote_vnet_resource_id: "/x", azure_user_email: "a@b.c" })).toBe(false);
  });
});
