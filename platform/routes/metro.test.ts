import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DDOS, deviceMessages, SFP_PRODUCT } from "../contract/devices.ts";
import { testPlatform, type CallResult, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { malformedPayloads, validVariants } from "../test/malformed.ts";

/** The next whole hour (UTC, ISO): announcements start from now on. */
const nextHour = (plus = 1) => new Date((Math.floor(Date.now() / 3_600_000) + plus) * 3_600_000).toISOString();

// Metro Ethernet NIDs (spec 3 §2.11, §5, §7.2) and OAM as IEEE 802.1ag / Y.1731 define it.

// why `any`: JSON answers read field by field in assertions (their schemas are checked in openapi.test.ts).
type Row = Record<string, any>;

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const post = (a: TestAccount, call: string, body: unknown, query?: Record<string, string>) => p.call("POST", call, { token: a.token, body, query });
const get = (a: TestAccount, call: string, query?: Record<string, string>) => p.call("GET", call, { token: a.token, query });

export const metroBody = (extra: Record<string, unknown> = {}) => ({
  metro_name: "Hamburg DC uplink",
  prod_code: "BN-METRO-1000",
  shipping_address: "Am Sandtorkai 50, 20457 Hamburg",
  site_address: "Am Sandtorkai 50, 20457 Hamburg",
  provider_service_id: "EVC-4410",
  client_circuit_id: "HH-01",
  contact_name: "Jana Weber",
  contact_email: "jana.weber@example.com",
  contact_phone: "+49 40 1234567",
  wan_data_vlan_id: 210,
  wan_cir_mbps: 300,
  wan_eir_mbps: 100,
  latitude: 53.5436,
  longitude: 9.9889,
  ...extra,
});

async function createMetro(a: TestAccount, extra: Record<string, unknown> = {}) {
  const r = await post(a, "create_metro", metroBody(extra));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.detail).toBe("Metro device created.");
  return r.body.metro_id as string;
}
const detail = async (a: TestAccount, id: string) => {
  const r = await get(a, "get_metro_detail", { metro_id: id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const msgs = (r: CallResult) => (Array.isArray(r.body.detail) ? r.body.detail.map((x: { msg: string }) => x.msg) : [r.body.detail]);

describe("Metro Ethernet NIDs: create, list, detail", () => {
  it("creates one of each product; management VLAN 100 by default; SFPs only for BN-METRO-1000F", async () => {
    const a = await p.newAccount();
    const products = (await get(a, "metro_products")).body;
    expect(products.map((x: Row) => x.prod_code)).toEqual(["BN-METRO-100", "BN-METRO-1000", "BN-METRO-1000F"]);
    expect(products[2].sfp_types).toEqual(["sfp_mmf", "sfp_smf"]);
    const ids: string[] = [];
    for (const x of products) ids.push(await createMetro(a, { prod_code: x.prod_code, metro_name: `NID ${x.prod_code}`, ...(x.prod_code === "BN-METRO-1000F" ? { wan_sfp: "sfp_smf", lan_sfp: "sfp_mmf" } : {}) }));
    const list = (await get(a, "get_metro")).body;
    expect(list).toHaveLength(3);
    const d = await detail(a, ids[2]!);
    expect(d).toMatchObject({ wan_mgmt_vlan_id: 100, wan_data_vlan_id: 210, wan_cir_mbps: 300, wan_eir_mbps: 100, wan_sfp: "sfp_smf", lan_sfp: "sfp_mmf", region: "AMS", oam_ccp_enabled: false });
    expect(d.ports.map((x: Row) => [x.role, x.sfp_type, x.vlan_ids.mgmt])).toEqual([
      ["wan", "sfp_smf", 100],
      ["lan", "sfp_mmf", null],
    ]);
    expect((await detail(a, ids[1]!)).ports[0].sfp_type).toBeNull();
    expect((await get(a, "get_metro", { sort: "prod_code", size: "1", page: "3" })).body.items[0].prod_code).toBe("BN-METRO-1000F");
    expect((await get(a, "metro_ccm_interval")).body).toEqual(["3.3ms", "10ms", "100ms", "1s", "10s", "1min", "10min"]);
  });

  it("refuses what §5 refuses: name and product, numeric CIR/EIR, VLAN ids 1–4094, SFPs of other products (a detail list)", async () => {
    const a = await p.newAccount();
    let r = await post(a, "create_metro", metroBody({ metro_name: "", prod_code: undefined }));
    expect(msgs(r)).toEqual(expect.arrayContaining(["Metro name is required.", "Product code is required."]));
    r = await post(a, "create_metro", metroBody({ wan_cir_mbps: "fast", wan_eir_mbps: -1, wan_data_vlan_id: 4095, lan_q_in_q_vlan_id: 0 }));
    expect(r.status).toBe(422);
    expect(msgs(r)).toEqual(
      expect.arrayContaining(["WAN CIR must be numeric.", "WAN EIR must be at least 0.", "WAN data VLAN id must be a whole number from 1 to 4094.", "LAN Q-in-Q VLAN id must be a whole number from 1 to 4094."]),
    );
    r = await post(a, "create_metro", metroBody({ wan_sfp: "sfp_smf" }));
    expect(msgs(r)).toEqual(["SFP choices are only for BN-METRO-1000F"]);
    expect((await post(a, "create_metro", metroBody({ wan_data_vlan_id: 4094, wan_cir_mbps: "250" }))).status).toBe(200);
  });
});

describe("Metro Ethernet NIDs: edit, OAM and the settings read back", () => {
  it("Edit NID info, toggles, thresholds, entity, shipping, announcements", async () => {
    const a = await p.newAccount();
    const id = await createMetro(a);
    let r = await post(a, "update_metro_info", { metro_id: id, ...metroBody({ metro_name: "Hamburg DC", description: "Rack 12", wan_cir_mbps: 500, wan_eir_mbps: 0, wan_mgmt_vlan_id: 4000 }) });
    expect(r.body.detail).toBe("Updated metro info successfully.");
    r = await post(a, "update_metro_info", { metro_id: id, ...metroBody({ metro_name: " ", lan_data_vlan_id: "x" }) });
    expect(msgs(r)).toEqual(expect.arrayContaining(["Metro name is required.", "LAN data VLAN id must be a whole number from 1 to 4094."]));
    for (const call of ["toggle_metro_netflow", "toggle_metro_geo_visibility", "toggle_metro_denial_of_service", "toggle_metro_malicious_ip_block"]) {
      expect((await post(a, call, { metro_id: id, enabled: true })).status, call).toBe(200);
      expect((await post(a, call, { metro_id: id, enabled: true })).status, call).toBe(409);
    }
    r = await post(a, "set_metro_denial_of_service_thresholds", { ...DEFAULT_DDOS, icmp_thresholds: { alert_threshold: 100, block_threshold: 3000, max_threshold: 2999 } }, { metro_id: id });
    expect(msgs(r)).toEqual(["ICMP flood: Block must be at most Max."]);
    expect((await post(a, "set_metro_denial_of_service_thresholds", DEFAULT_DDOS, { metro_id: id })).status).toBe(200);
    expect((await get(a, "get_metro_denial_of_service_thresholds", { metro_id: id })).body).toEqual(DEFAULT_DDOS);
    const iam = await p.newIamUser(a, "admin");
    expect((await post(a, "metro_assign_entity", { metro_id: id, new_entity_name: iam.entityName })).body.detail).toBe(deviceMessages.assigned);
    expect((await post(a, "update_metro_shipping_info", { metro_id: id, tracking_number: "JD014600006281" })).status).toBe(200);
    const announced = nextHour();
    expect((await post(a, "metro_add_announcement", { metro_id: id, start_time: announced, duration: 1 })).body.detail).toBe("Maintenance announcement created.");
    expect((await post(a, "metro_add_announcement", { metro_id: id, start_time: "", duration: "" })).body.detail.map((x: Row) => x.msg)).toEqual(["Please fill out all fields.", "Please fill out all fields."]);
    const d = await detail(a, id);
    expect(d).toMatchObject({
      metro_name: "Hamburg DC",
      description: "Rack 12",
      wan_cir_mbps: 500,
      wan_mgmt_vlan_id: 4000,
      netflow_enabled: true,
      monitor_inbound_pub_ip_enabled: true,
      monitor_outbound_pub_ip_enabled: true,
      denial_of_service_enabled: true,
      malicious_ip_block_enabled: true,
      entity_name: iam.entityName,
      tracking_number: "JD014600006281",
      announcements: [{ start_time: announced, duration: 1 }],
    });
  });

  it("a metro's LAN ports are those of its Interfaces, and a reset of another port is refused (issue 63 item 22)", async () => {
    const a = await p.newAccount();
    for (const [prod_code, intf] of [["BN-METRO-1000", "ge1"], [SFP_PRODUCT, "sfp1"]] as const) {
      const id = await createMetro(a, { prod_code, ...(prod_code === SFP_PRODUCT ? { wan_sfp: "sfp_smf", lan_sfp: "sfp_smf" } : {}) });
      const lan = (await get(a, "get_metro_lan_interfaces", { metro_id: id })).body as Row[];
      const grid = ((await detail(a, id)).ports as Row[]).filter((port) => port.role === "lan");
      expect(lan.map((port) => [port.name, port.intf])).toEqual([["lan1", intf]]);
      expect(lan.map((port) => [port.name, port.intf])).toEqual(grid.map((port) => [port.name, port.intf]));
      for (const other of ["lan2", "lan4", "eth1", "wan0"]) {
        const r = await post(a, "reset_interface", { node_id: id, interface: other });
        expect(r.status).toBe(400);
        expect(r.body.detail).toEqual([{ loc: ["body", "interface"], msg: `This device has no interface ${other}: choose one of lan1.`, type: "value_error" }]);
      }
      expect((await post(a, "reset_interface", { node_id: id, interface: intf })).body.detail).toBe("Interface reset.");
      // The port the reset took down is the one both reads show.
      expect((await get(a, "get_metro_lan_interfaces", { metro_id: id })).body[0].operational_state).toBe("DOWN");
      expect(((await detail(a, id)).ports as Row[]).find((port) => port.name === "lan1")!.operational_state).toBe("DOWN");
    }
  });

  it("edit_oam: IEEE 802.1ag / Y.1731 ranges, checked and stored only with continuity check on", async () => {
    const a = await p.newAccount();
    const id = await createMetro(a);
    const oam = { metro_id: id, loopback_enabled: true, ccp_enabled: true, ccm_interval: "1s", md_name: "LINKWISE-MD", md_level: 5, md_association: "EVC-4410-MA", mep_id: 101, vlan_id: 210 };
    expect((await post(a, "edit_oam", oam)).body.detail).toBe("Updated OAM info successfully.");
    expect(await detail(a, id)).toMatchObject({ oam_loopback_enabled: true, oam_ccp_enabled: true, oam_ccm_interval: "1s", oam_md_name: "LINKWISE-MD", oam_md_level: 5, oam_md_association: "EVC-4410-MA", oam_mep_id: 101, oam_vlan_id: 210 });
    // The edges of each range
    for (const [field, good, bad, message] of [
      ["md_level", 0, 8, "MD level must be a whole number from 0 to 7."],
      ["md_level", 7, -1, "MD level must be a whole number from 0 to 7."],
      ["mep_id", 1, 0, "MEP id must be a whole number from 1 to 8191."],
      ["mep_id", 8191, 8192, "MEP id must be a whole number from 1 to 8191."],
      ["vlan_id", 4094, 4095, "VLAN id must be a whole number from 1 to 4094."],
      ["vlan_id", 1, 0, "VLAN id must be a whole number from 1 to 4094."],
      ["md_name", "x".repeat(43), "x".repeat(44), "MD name must be 1–43 printable ASCII characters."],
      ["md_name", "a", "", "MD name must be 1–43 printable ASCII characters."],
      ["md_name", "~ !", "Straße", "MD name must be 1–43 printable ASCII characters."],
      ["md_association", "y".repeat(45), "y".repeat(46), "MA name must be 1–45 printable ASCII characters."],
      ["ccm_interval", "3.3ms", "2s", "CCM interval must be one of: 3.3ms, 10ms, 100ms, 1s, 10s, 1min, 10min."],
    ] as const) {
      expect((await post(a, "edit_oam", { ...oam, [field]: good })).status, `${field}=${good}`).toBe(200);
      const r = await post(a, "edit_oam", { ...oam, [field]: bad });
      expect(r.status, `${field}=${bad}`).toBe(422);
      expect(r.body.detail[0], `${field}=${bad}`).toMatchObject({ loc: ["body", field], msg: message });
    }
    // Off: the CFM fields are neither checked nor kept.
    expect((await post(a, "edit_oam", { metro_id: id, loopback_enabled: false, ccp_enabled: false, md_level: 99, md_name: "" })).status).toBe(200);
    expect(await detail(a, id)).toMatchObject({ oam_ccp_enabled: false, oam_md_level: null, oam_md_name: null, oam_mep_id: null, oam_ccm_interval: null });
    // Each CFM field left out says the dialog's words (devices-forms: one wording on both sides).
    expect(msgs(await post(a, "edit_oam", { metro_id: id, loopback_enabled: false, ccp_enabled: true }))).toEqual([
      "Choose a CCM interval.",
      "MD name must be 1–43 printable ASCII characters.",
      "MD level is required.",
      "MA name must be 1–45 printable ASCII characters.",
      "MEP id is required.",
      "VLAN id is required.",
    ]);
    // A number out of its range (its field's check) and the rule's words come at once.
    expect(msgs(await post(a, "edit_oam", { ...oam, md_level: 8, md_name: "", vlan_id: null }))).toEqual(["MD level must be a whole number from 0 to 7.", "MD name must be 1–43 printable ASCII characters.", "VLAN id is required."]);
  });

  it("404 across accounts, 403 for readonly, malformed payloads 4xx", async () => {
    const a = await p.newAccount();
    const b = await p.newAccount();
    const ro = await p.newIamUser(a, "readonly");
    const id = await createMetro(a);
    expect((await get(b, "get_metro_detail", { metro_id: id })).status).toBe(404);
    for (const [call, body] of [
      ["update_metro_info", { metro_id: id, ...metroBody() }],
      ["edit_oam", { metro_id: id, loopback_enabled: true, ccp_enabled: false }],
      ["toggle_metro_netflow", { metro_id: id, enabled: true }],
      ["metro_assign_entity", { metro_id: id, new_entity_name: "x" }],
      ["remove_metro", { metro_id: id }],
    ] as const) {
      expect((await post(b, call, body)).status, call).toBe(404);
      expect((await post(ro, call, body)).status, call).toBe(403);
    }
    for (const m of malformedPayloads(metroBody())) {
      if (validVariants({ optional: Object.keys(metroBody()).filter((k) => k !== "metro_name" && k !== "prod_code"), emptyAllowed: ["shipping_address", "site_address", "provider_service_id", "client_circuit_id", "contact_name", "contact_email", "contact_phone"] })(m)) continue;
      if (/null|numeric string|number as string/.test(m.name)) continue;
      const r = await p.call("POST", "create_metro", { token: a.token, rawBody: m.rawBody, contentType: m.contentType });
      expect(r.status, `${m.name}: ${JSON.stringify(r.body).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, m.name).toBeLessThan(500);
    }
    expect((await post(a, "remove_metro", { metro_id: id })).body.detail).toBe("Metro device removed.");
  }, 120_000);
});
