import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { validateForm } from "../../lib/action.server.ts";
import { StartActivationSchema } from "../devices-shared/activation.server.ts";
import { CreateMetroSchema, metroBody, OamSchema } from "./schemas.server.ts";

/* The screen's forms on their edges (spec 3 §5; IEEE 802.1ag / Y.1731 ranges): the message names the field. */

const form = (fields: Record<string, string>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
};
const errorsOf = (schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) => {
  const s = parseWithZod(form(fields), { schema });
  return s.status === "success" ? {} : (s.error ?? {});
};

describe("Edit OAM info", () => {
  const base = { metro_id: "metro-1", ccp_enabled: "on", ccm_interval: "1s", md_name: "md", md_association: "ma", md_level: "0", mep_id: "1", vlan_id: "1" };
  it("takes the edges of each range", () => {
    expect(errorsOf(OamSchema, base)).toEqual({});
    expect(errorsOf(OamSchema, { ...base, md_level: "7", mep_id: "8191", vlan_id: "4094", md_name: "x".repeat(43), md_association: "y".repeat(45) })).toEqual({});
  });
  it("names the field just outside each range", () => {
    const e = errorsOf(OamSchema, { ...base, md_level: "8", mep_id: "0", vlan_id: "4095", md_name: "x".repeat(44), md_association: "é", ccm_interval: "2s" });
    expect(e).toMatchObject({
      md_level: ["MD level must be a whole number from 0 to 7."],
      mep_id: ["MEP id must be a whole number from 1 to 8191."],
      vlan_id: ["VLAN id must be a whole number from 1 to 4094."],
      md_name: ["MD name must be 1–43 printable ASCII characters."],
      md_association: ["MA name must be 1–45 printable ASCII characters."],
    });
    expect(e.ccm_interval?.[0]).toMatch(/^CCM interval must be one of: 3.3ms, 10ms/);
  });
  it("neither checks nor sends the CFM fields with continuity check off", () => {
    const s = parseWithZod(form({ metro_id: "metro-1", md_level: "99", loopback_enabled: "on" }), { schema: OamSchema });
    expect(s.status).toBe("success");
    expect(s.status === "success" ? s.value : null).toEqual({ metro_id: "metro-1", loopback_enabled: true, ccp_enabled: false });
  });
  it("with continuity check on, a blank CFM field says the request's words (the form posts every field, \"\" for a blank)", () => {
    const r = validateForm(form({ metro_id: "metro-1", ccp_enabled: "on", ccm_interval: "", md_name: "", md_level: "", md_association: "", mep_id: "", vlan_id: "" }), OamSchema);
    expect(r.ok ? {} : r.submission.error).toEqual({
      ccm_interval: ["Choose a CCM interval."],
      md_name: ["MD name must be 1–43 printable ASCII characters."],
      md_level: ["MD level is required."],
      md_association: ["MA name must be 1–45 printable ASCII characters."],
      mep_id: ["MEP id is required."],
      vlan_id: ["VLAN id is required."],
    });
    const ok = validateForm(form({ ...base, md_level: "7" }), OamSchema);
    expect(ok.ok && ok.value).toEqual({ metro_id: "metro-1", loopback_enabled: false, ccp_enabled: true, ccm_interval: "1s", md_name: "md", md_level: 7, md_association: "ma", mep_id: 1, vlan_id: 1 });
  });
});

describe("Create Device", () => {
  // What the rendered dialog posts: every field, a blank one as "".
  const blank = { metro_name: "", prod_code: "", site_address: "", shipping_address: "", provider_service_id: "", client_circuit_id: "", contact_name: "", contact_email: "", contact_phone: "" };
  const vlans = { wan_data_vlan_id: "", wan_q_in_q_vlan_id: "", lan_data_vlan_id: "", lan_q_in_q_vlan_id: "", wan_mgmt_vlan_id: "", wan_cir_mbps: "", wan_eir_mbps: "" };
  const errors = (fields: Record<string, string>) => {
    const r = validateForm(form(fields), CreateMetroSchema);
    return r.ok ? {} : (r.submission.error ?? {});
  };
  it("needs a name and a product; VLAN ids 1–4094, CIR/EIR numeric; SFPs only for BN-METRO-1000F", () => {
    expect(errors({ ...blank, ...vlans })).toMatchObject({ metro_name: ["Metro name is required."], prod_code: ["Product code is required."] });
    const e = errors({ ...blank, ...vlans, metro_name: "m", prod_code: "BN-METRO-100", wan_data_vlan_id: "0", lan_q_in_q_vlan_id: "4095", wan_cir_mbps: "fast" });
    expect(e).toMatchObject({
      wan_data_vlan_id: ["WAN data VLAN id must be a whole number from 1 to 4094."],
      lan_q_in_q_vlan_id: ["LAN Q-in-Q VLAN id must be a whole number from 1 to 4094."],
      wan_cir_mbps: ["WAN CIR must be numeric."],
    });
    // The product's rule, as the call's, once the fields are each right.
    expect(errors({ ...blank, ...vlans, metro_name: "m", prod_code: "BN-METRO-100", wan_sfp: "sfp_smf" })).toEqual({ wan_sfp: ["SFP choices are only for BN-METRO-1000F"] });
  });
  it("sends the management VLAN 100 by default and blanks as cleared (text '', VLAN ids, rates and SFPs null)", () => {
    const r = validateForm(form({ ...blank, ...vlans, metro_name: "m", prod_code: "BN-METRO-1000F", wan_sfp: "sfp_mmf", lan_sfp: "", wan_eir_mbps: "20" }), CreateMetroSchema);
    if (!r.ok) throw new Error("refused");
    expect(metroBody(r.value)).toMatchObject({ wan_mgmt_vlan_id: 100, wan_data_vlan_id: null, site_address: "", wan_sfp: "sfp_mmf", lan_sfp: null, wan_cir_mbps: null, wan_eir_mbps: 20 });
  });
});

describe("Start Activation Test: start_<kind>_test's request, the layer's peer checked by the call's rule", () => {
  // What the rendered dialog posts: every field, a blank one as "".
  const blank = { peer_ip: "", peer_mac: "", vlan_id: "", ftd_max_ms: "", fdv_max_ms: "", flr_max_pct: "", availability_min_pct: "" };
  const errors = (kind: "cpe" | "metro", fields: Record<string, string>) => {
    const r = validateForm(form({ device_id: `${kind}-1`, ...blank, ...fields }), StartActivationSchema(kind));
    return r.ok ? {} : (r.submission.error ?? {});
  };
  it("asks for the peer IP (L3), or the MAC and VLAN (L2, metro only), in the call's words", () => {
    expect(errors("metro", {})).toEqual({ peer_ip: ["Please enter peer IP address first."] });
    expect(errors("cpe", {})).toEqual({ peer_ip: ["Please enter peer IP address first."] });
    expect(errors("metro", { layer: "l2" })).toEqual({ peer_mac: ["Please enter the peer MAC address."], vlan_id: ["Please enter the VLAN id."] });
    expect(errors("metro", { layer: "l2", peer_mac: "00:11:22:33:44:55", vlan_id: "x" })).toEqual({ vlan_id: ["VLAN id must be a whole number from 1 to 4094."] });
    expect(errors("metro", { peer_ip: "192.0.2" })).toEqual({ peer_ip: ["Not a valid IP address: 192.0.2"] });
    expect(errors("cpe", { layer: "l2" })).toHaveProperty("layer");
    expect(errors("cpe", { peer_ip: "192.0.2.1", flr_max_pct: "101" })).toEqual({ flr_max_pct: ["Frame loss ratio must be 0–100."] });
    expect(errors("cpe", { peer_ip: "192.0.2.1", ftd_max_ms: "0" })).toEqual({ ftd_max_ms: ["Frame transfer delay must be above 0."] });
  });
  it("a blank criterion is left out; the service performance test is 15 min unless 2 h or 24 h is chosen (ITU-T Y.1564)", () => {
    const r = validateForm(form({ device_id: "cpe-1", ...blank, peer_ip: "192.0.2.1", fdv_max_ms: "4" }), StartActivationSchema("cpe"));
    expect(r.ok && r.value).toMatchObject({ peer_ip: "192.0.2.1", performance_duration_s: "900", fdv_max_ms: 4, ftd_max_ms: undefined });
    const day = validateForm(form({ device_id: "metro-1", ...blank, peer_ip: "192.0.2.1", performance_duration_s: "86400" }), StartActivationSchema("metro"));
    expect(day.ok && day.value.performance_duration_s).toBe("86400");
    expect(errors("cpe", { peer_ip: "192.0.2.1", performance_duration_s: "20" })).toEqual({ performance_duration_s: ["Choose 15 minutes, 2 hours or 24 hours."] });
  });
});
