import { describe, expect, it } from "vitest";
import { missingRequired, namedTalkers } from "./model.ts";

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

describe("Top Talkers: the endpoints by name (issue 63 item 21: only ids were shown)", () => {
  const talker = (epid: string, bytes: number) => ({ epid, rx_bytes: bytes, tx_bytes: bytes / 2, total_bytes: bytes * 1.5 });
  const endpoints = [
    { ep_id: "ep-1a2b", ep_name: "Analytics VPC" },
    { ep_id: "ep-3c4d", ep_name: "Analytics VPC" },
    { ep_id: "ep-5e6f", ep_name: "Laptops" },
  ];

  it("names each talker by its endpoint; two of one name with their ids; a gone endpoint by its id", () => {
    const named = namedTalkers([talker("ep-5e6f", 30), talker("ep-1a2b", 20), talker("ep-3c4d", 10), talker("ep-gone", 5)], endpoints);
    expect(named.map((t) => t.name)).toEqual(["Laptops", "Analytics VPC (ep-1a2b)", "Analytics VPC (ep-3c4d)", "ep-gone"]);
    // The figures are the platform's, untouched.
    expect(named[0]).toMatchObject(talker("ep-5e6f", 30));
  });
});
