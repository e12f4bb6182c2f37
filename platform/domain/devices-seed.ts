import { and, eq } from "drizzle-orm";
import { entities } from "../db/schema.ts";
import { DEFAULT_DDOS } from "../contract/devices.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { newId } from "../lib/ids.ts";
import { configurePerfTest, createCpe, setService, startSpeedTest, updateNetworkInfo } from "./cpe.ts";
import { startTest } from "./device-tests.ts";
import { addAnnouncement, recordAnnouncement, setShipping, setThresholds, setToggle, updateDevice } from "./devices.ts";
import { createMetro, editOam } from "./metro.ts";

/*
 * The demo account's devices (platform/seed.ts): thirteen Internet NIDs of every product and six
 * Metro Ethernet NIDs (two of each product) at real business addresses in the Americas, Europe
 * and Asia-Pacific, spread over the account's entities, with settings, announcements, finished
 * activation tests and a speed test, so every screen has something real to show.
 */

const cpeSites = [
  ["Empire State office", "BN-CPE-1000", "350 Fifth Avenue, New York, NY 10118, USA", 40.7484, -73.9857, "Headquarters"],
  ["Boston sales office", "BN-CPE-100", "1 Federal Street, Boston, MA 02110, USA", 42.3554, -71.0575, "Branch East"],
  ["Philadelphia branch", "BN-CPE-500", "1650 Market Street, Philadelphia, PA 19103, USA", 39.9533, -75.1677, "Branch East"],
  ["Chicago Willis Tower", "BN-CPE-IP", "233 S Wacker Drive, Chicago, IL 60606, USA", 41.8789, -87.6359, "Headquarters"],
  ["San Francisco Ferry Building", "BN-CPE-500", "1 Ferry Building, San Francisco, CA 94111, USA", 37.7955, -122.3937, "Headquarters"],
  ["Toronto King West", "BN-CPE-100", "100 King Street West, Toronto, ON M5X 1A9, Canada", 43.6487, -79.3817, "Branch East"],
  ["London Gherkin", "BN-CPE-1000", "30 St Mary Axe, London EC3A 8BF, United Kingdom", 51.5145, -0.0803, "EMEA Operations"],
  ["Frankfurt Taunusanlage", "BN-CPE-IP", "Taunusanlage 12, 60325 Frankfurt am Main, Germany", 50.1142, 8.671, "EMEA Operations"],
  ["Paris Saint-Lazare", "BN-CPE-500", "8 Rue de Londres, 75009 Paris, France", 48.8765, 2.3305, "EMEA Operations"],
  ["Madrid Castellana", "BN-CPE-100", "Paseo de la Castellana 259, 28046 Madrid, Spain", 40.477, -3.688, "EMEA Operations"],
  ["Singapore Raffles Place", "BN-CPE-1000", "1 Raffles Place, Singapore 048616", 1.284, 103.851, "APAC Operations"],
  ["Sydney Martin Place", "BN-CPE-IP", "1 Martin Place, Sydney NSW 2000, Australia", -33.8675, 151.2099, "APAC Operations"],
  ["Tokyo Otemachi", "BN-CPE-500", "1-1-2 Otemachi, Chiyoda-ku, Tokyo 100-0004, Japan", 35.6867, 139.764, "APAC Operations"],
] as const;

const metroSites = [
  ["Hamburg port DC", "BN-METRO-1000F", "Am Sandtorkai 50, 20457 Hamburg, Germany", 53.5436, 9.9889, "EMEA Operations", 500, 200],
  ["Amsterdam Zuidas", "BN-METRO-1000", "Gustav Mahlerplein 2, 1082 MA Amsterdam, Netherlands", 52.3389, 4.873, "EMEA Operations", 300, 100],
  ["Secaucus data centre", "BN-METRO-1000F", "755 Secaucus Road, Secaucus, NJ 07094, USA", 40.7773, -74.0715, "Headquarters", 1000, 0],
  ["Dallas Bryan Street", "BN-METRO-100", "2323 Bryan Street, Dallas, TX 75201, USA", 32.794, -96.794, "Headquarters", 50, 50],
  ["Stockholm Kungsgatan", "BN-METRO-100", "Kungsgatan 36, 111 35 Stockholm, Sweden", 59.336, 18.063, "EMEA Operations", 100, 0],
  ["Hong Kong Harbour View", "BN-METRO-1000", "1 Harbour View Street, Central, Hong Kong", 22.285, 114.158, "APAC Operations", 200, 100],
] as const;

const HOUR = 3_600_000;
/**
 * How far back the demo devices' records start: the weeks of history the demo shows (charts,
 * outage history, SLA months). Their `created_at` says so, the one notion of a record's start.
 */
export const DEMO_HISTORY_DAYS = 90;

async function entityNamed(deps: PlatformDeps, accountId: string, name: string, description: string): Promise<void> {
  const [found] = await deps.db.select({ id: entities.entityId }).from(entities).where(and(eq(entities.accountId, accountId), eq(entities.entityName, name)));
  if (!found) await deps.db.insert(entities).values({ entityId: newId("ent"), accountId, entityName: name, description, email: "" });
}

export async function seedDevices(deps: PlatformDeps, accountId: string) {
  const db = deps.db;
  await entityNamed(deps, accountId, "Headquarters", "Head office");
  await entityNamed(deps, accountId, "Branch East", "East coast branch offices");
  await entityNamed(deps, accountId, "EMEA Operations", "Offices and data centres in Europe");
  await entityNamed(deps, accountId, "APAC Operations", "Offices in Asia-Pacific");
  const now = Date.now();
  const nextHour = Math.ceil(now / HOUR) * HOUR;
  const recordStart = new Date(now - DEMO_HISTORY_DAYS * 24 * HOUR);

  // A demo device is shipped to its site.
  const siteFields = (address: string, lat: number, lon: number, entity: string) => ({ site_address: address, shipping_address: address, latitude: lat, longitude: lon, entity_name: entity });

  const cpeIds: string[] = [];
  for (const [i, [name, prod, address, lat, lon, entity]] of cpeSites.entries()) {
    const id = await createCpe(deps, accountId, {
      cpe_name: name,
      prod_code: prod,
      ...siteFields(address, lat, lon, entity),
      provider_service_id: `LW-INET-${String(1001 + i)}`,
      client_circuit_id: `DN-${String(2201 + i)}`,
      contact_name: ["Maria Lopez", "Kenji Sato", "Aisha Khan", "Tom Becker"][i % 4],
      contact_email: `site${i + 1}@demo.example`,
      contact_phone: `+1 555 01${String(10 + i)}`,
      description: `${prod === "BN-CPE-IP" ? "Managed IP access" : "Internet NID"} at ${name}`,
    });
    cpeIds.push(id);
    await updateDevice(db, accountId, "cpe", id, { state: "registered", created_at: recordStart, tracking_number: `1Z9${String(870000 + i * 37)}` });
    if (prod === "BN-CPE-IP" && i !== 11) await setService(db, accountId, id, true);
    if (i % 3 === 0) await setToggle(db, accountId, "cpe", id, "app_visibility_enabled", true);
    if (i % 4 === 1) await setToggle(db, accountId, "cpe", id, "geo_visibility", true);
    if (i % 5 === 2) {
      await setToggle(db, accountId, "cpe", id, "denial_of_service_enabled", true);
      await setToggle(db, accountId, "cpe", id, "malicious_ip_block_enabled", true);
      await setThresholds(db, accountId, "cpe", id, { ...DEFAULT_DDOS, tcp_syn_flood_thresholds: { alert_threshold: 300, block_threshold: 2500, max_threshold: 6000 } });
    }
    if (i % 2 === 0) await setToggle(db, accountId, "cpe", id, "netflow_enabled", true);
    if (i === 0 || i === 6) {
      await configurePerfTest(deps, accountId, { cpe_id: id, peer_region: i === 0 ? "nyc" : "lhr", hour_of_day: 2, enable: true });
      await setToggle(db, accountId, "cpe", id, "iperf_server", true);
    }
    if (i === 4) await updateNetworkInfo(db, accountId, { cpe_id: id, mode: "ROUTER", wan_addressing: "static", wan_cidr: "203.0.113.18/29", wan_gateway: "203.0.113.17", dns_servers: ["1.1.1.1", "9.9.9.9"], lan_cidr: "10.40.0.1/24" });
  }
  // Maintenance announced tonight and last week; a speed test and finished activation tests.
  await addAnnouncement(db, accountId, "cpe", cpeIds[1]!, new Date(nextHour + 20 * HOUR), 2);
  // Last week's is history (an announcement made then), past what add_announcement accepts today.
  await recordAnnouncement(db, accountId, cpeIds[6]!, new Date(nextHour - 7 * 24 * HOUR), 3);
  await startSpeedTest(deps, accountId, cpeIds[0]!, "ookla", now - 10 * 60_000);
  await startTest(deps, accountId, "cpe", cpeIds[0]!, { peer_ip: "198.18.1.250" }, undefined, now - 30 * 60_000);
  await startTest(deps, accountId, "cpe", cpeIds[6]!, { peer_ip: "198.18.11.250" }, undefined, now - 2 * HOUR);

  const metroIds: string[] = [];
  for (const [i, [name, prod, address, lat, lon, entity, cir, eir]] of metroSites.entries()) {
    const fibre = prod === "BN-METRO-1000F";
    const id = await createMetro(deps, accountId, {
      metro_name: name,
      prod_code: prod,
      ...siteFields(address, lat, lon, entity),
      provider_service_id: `LW-EVC-${String(4401 + i)}`,
      client_circuit_id: `DN-MEF-${String(31 + i)}`,
      contact_name: ["Jana Weber", "Pieter de Vries", "Luis Garcia"][i % 3],
      contact_email: `metro${i + 1}@demo.example`,
      contact_phone: `+1 555 02${String(10 + i)}`,
      wan_data_vlan_id: 200 + i * 10,
      wan_q_in_q_vlan_id: i % 2 ? 3000 + i : null,
      lan_data_vlan_id: 10 + i,
      wan_mgmt_vlan_id: 100,
      wan_cir_mbps: cir,
      wan_eir_mbps: eir,
      wan_sfp: fibre ? "sfp_smf" : null,
      lan_sfp: fibre ? "sfp_mmf" : null,
      description: `Ethernet private line, EVC ${String(4401 + i)}`,
    });
    metroIds.push(id);
    await updateDevice(db, accountId, "metro", id, { state: "registered", created_at: recordStart, tracking_number: `JD0146000${String(6281 + i)}` });
    if (i !== 3) {
      await editOam(db, accountId, {
        metro_id: id,
        loopback_enabled: true,
        ccp_enabled: true,
        ccm_interval: i % 2 ? "100ms" : "1s",
        md_name: "LINKWISE",
        md_level: 5,
        md_association: `EVC-${4401 + i}`,
        mep_id: 100 + i,
        vlan_id: 200 + i * 10,
      });
    }
    if (i % 2 === 0) await setToggle(db, accountId, "metro", id, "netflow_enabled", true);
  }
  await setShipping(db, accountId, "metro", metroIds[5]!, "JD014600006399");
  await addAnnouncement(db, accountId, "metro", metroIds[0]!, new Date(nextHour + 26 * HOUR), 4);
  await startTest(deps, accountId, "metro", metroIds[0]!, { peer_mac: "00:1b:21:3a:4f:10", vlan_id: 200 }, undefined, now - 3 * HOUR);
  await startTest(deps, accountId, "metro", metroIds[2]!, { peer_ip: "198.18.1.250" }, undefined, now - 50 * 60_000);
}
