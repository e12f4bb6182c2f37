import { describe, expect, it } from "vitest";
import { addressToggleSchema } from "../endpoint-node-groups/address-toggle.server.ts";
import { secondaryIpsSchema } from "./schemas.server.ts";
import { ConfigureLanBody, lanRule } from "../../../platform/contract/nodes-forms.shapes.ts";

/* The Endpoint Nodes forms' rules (spec 2 §4, §5): secondary IPs named when refused; the toggle-dialog rule with an address. */

const node = { primary_ip: "10.0.0.5", secondary_ips: ["10.0.0.6"] };
const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? [] : r.error!.issues.map((i) => i.message));

describe("secondaryIpsSchema", () => {
  it("names bad addresses, repeats, the primary and those the node holds (the call's words)", () => {
    const r = secondaryIpsSchema(node).safeParse({ ep_node_id: "epn-1", secondary_ips: "10.0.0.7, 10.0.0.999, 10.0.0.7, 10.0.0.5, 10.0.0.6" });
    expect(messages(r)).toEqual([
      "Not a valid IPv4 address: 10.0.0.999",
      "Entered more than once: 10.0.0.7",
      "The node's primary IP cannot be a secondary IP: 10.0.0.5",
      "Already secondary IPs of the node: 10.0.0.6",
    ]);
  });
  it("answers the list", () => {
    expect(secondaryIpsSchema(node).parse({ ep_node_id: "epn-1", secondary_ips: " 10.0.0.7 ,10.0.0.8" }).secondary_ips).toEqual(["10.0.0.7", "10.0.0.8"]);
  });
  it("a blank list: 'Secondary IPs are required.'", () => {
    expect(messages(secondaryIpsSchema(node).safeParse({ ep_node_id: "epn-1", secondary_ips: " , " }))).toEqual(["Secondary IPs are required."]);
  });
});

describe("addressToggleSchema", () => {
  // Configure LAN Interface: configure-lan-interface's request and rule, against the value now.
  const schema = addressToggleSchema({ enabled: true, address: "192.168.1.1/24" }, "primary_ipv4_address", { shape: ConfigureLanBody.shape, rule: lanRule });
  const lan = (fields: Record<string, unknown>) => ({ node_id: "epn-1", ...fields });
  it("refuses the current value, a missing or bad address (the call's words)", () => {
    expect(messages(schema.safeParse(lan({ enabled: true, primary_ipv4_address: "192.168.1.1/24" })))).toEqual(["The value is unchanged. Switch it to confirm."]);
    expect(messages(schema.safeParse(lan({ enabled: true, primary_ipv4_address: "" })))).toEqual(["An IPv4 address is required when the LAN interface is on."]);
    expect(messages(schema.safeParse(lan({ enabled: true, primary_ipv4_address: "192.168.1.1" })))).toEqual(["LAN interface address must be an IPv4 address with its prefix, such as 192.168.1.1/24: 192.168.1.1"]);
  });
  it("takes a new address or switching off", () => {
    expect(schema.parse(lan({ enabled: true, primary_ipv4_address: "192.168.2.1/24" }))).toMatchObject({ enabled: true, primary_ipv4_address: "192.168.2.1/24" });
    expect(schema.parse(lan({ primary_ipv4_address: "" }))).toMatchObject({ enabled: false });
  });
});
