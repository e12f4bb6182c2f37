import { describe, expect, it } from "vitest";
import { validateForm } from "../../lib/action.server.ts";
import { createNodeSchema, HardwareSchema, HostedSchema, nodeFormConstraints } from "./node-schemas.server.ts";
import { endpointKind, serviceKind } from "./node-kind.ts";

/* The form-factor tabs are their calls' requests (spec 2 §5): what the rendered forms post, and what they say. */

const form = (fields: Record<string, string>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
};
const errors = (schema: typeof HardwareSchema | typeof HostedSchema | ReturnType<typeof createNodeSchema>, fields: Record<string, string>) => {
  const r = validateForm(form(fields), schema);
  return r.ok ? {} : (r.submission.error ?? {});
};

describe("Hardware Device", () => {
  it("needs a shipping address ('Shipping address is required.', the call's words) and sends the call's body", () => {
    expect(errors(HardwareSchema, { node_id: "sn-1", form_factor: "hw", shipping_addr: "  " })).toEqual({ shipping_addr: ["Shipping address is required."] });
    const r = validateForm(form({ node_id: "sn-1", form_factor: "hw", shipping_addr: " Dock 4 " }), HardwareSchema);
    expect(r.ok && r.value).toEqual({ node_id: "sn-1", form_factor: "hw", shipping_addr: "Dock 4" });
  });
});

describe("Hosted Node", () => {
  const good = { node_id: "sn-1", form_factor: "hosted_aws", hosted_region: "us-east-1", hosted_vpc_cidr: "10.100.0.0/24", hosted_peer_ip: "10.100.0.10", hosted_peer_prefix: "24" };
  it("says each blank field is required, in the call's words", () => {
    expect(errors(HostedSchema, { ...good, hosted_vpc_cidr: "", hosted_peer_ip: "", hosted_peer_prefix: "" })).toEqual({
      hosted_vpc_cidr: ["VPC CIDR is required."],
      hosted_peer_ip: ["Peer IP is required."],
      hosted_peer_prefix: ["Peer prefix is required."],
    });
  });
  it("refuses a bad CIDR, IP or prefix with the call's messages", () => {
    expect(errors(HostedSchema, { ...good, hosted_vpc_cidr: "10.20.0.0/33", hosted_peer_ip: "10.0.0.999", hosted_peer_prefix: "x" })).toEqual({
      hosted_vpc_cidr: ["VPC CIDR must be an IPv4 address with its prefix, such as 10.0.0.0/24: 10.20.0.0/33"],
      hosted_peer_ip: ["Not a valid IPv4 address: 10.0.0.999"],
      hosted_peer_prefix: ["Peer prefix must be a whole number from 1 to 32."],
    });
    expect(errors(HostedSchema, { ...good, hosted_peer_prefix: "0" })).toEqual({ hosted_peer_prefix: ["Peer prefix must be a whole number from 1 to 32."] });
  });
  it("sends the call's body, the prefix a number", () => {
    const r = validateForm(form(good), HostedSchema);
    expect(r.ok && r.value).toEqual({ ...good, hosted_peer_prefix: 24 });
  });
  it("marks the tabs' fields required, within the call's limits", () => {
    const c = nodeFormConstraints(serviceKind);
    expect(c.hw?.shipping_addr).toMatchObject({ required: true, maxLength: 500 });
    expect(c.hosted?.hosted_peer_prefix).toMatchObject({ required: true, min: 1, max: 32 });
    expect(c.hosted?.hosted_peer_ip).toMatchObject({ required: true, maxLength: 15 });
  });
});

describe("Create {Endpoint|Service} Node, step 1", () => {
  const schema = createNodeSchema(endpointKind);
  const blank = { ep_node_name: "", ep_node_group_id: "", ep_node_group_name: "" };
  it("says what the call says: the name, and the chosen group's name or id", () => {
    expect(errors(schema, { ...blank, group_mode: "existing" })).toEqual({ ep_node_name: ["Node name is required."], ep_node_group_id: ["Node group is required."] });
    expect(errors(schema, { ...blank, ep_node_name: "Edge", group_mode: "existing" })).toEqual({ ep_node_group_id: ["Node group is required."] });
    expect(errors(schema, { ...blank, ep_node_name: "Edge", group_mode: "new" })).toEqual({ ep_node_group_name: ["Node group name is required."] });
  });
  it("leaves the unchosen group field out", () => {
    const r = validateForm(form({ ...blank, ep_node_name: " Edge ", group_mode: "new", ep_node_group_name: "Branches" }), schema);
    expect(r.ok && r.value).toEqual({ ep_node_name: "Edge", group_mode: "new", ep_node_group_name: "Branches" });
    const s = validateForm(form({ service_node_name: "Core 1", service_node_group_id: "sng-1", service_node_group_name: "" }), createNodeSchema(serviceKind));
    expect(s.ok && s.value).toEqual({ service_node_name: "Core 1", group_mode: "existing", service_node_group_id: "sng-1" });
  });
});
