import { useSearchParams } from "react-router";
import { DetailsTable } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import { hourLabel } from "../../../platform/contract/devices.ts";
import { DEVICE_TABS } from "../devices-shared/kind.ts";
import { DeviceMonitoringTab } from "../devices-shared/monitoring-tab.tsx";
import { SERVICE_PRODUCT, type CpeDetail } from "./model.ts";
import type { CpeMonitoring } from "./monitoring.ts";

/* The selected Internet NID's tabs (spec 3 §2.10): Details and Monitoring; BN-CPE-IP has Details only. */

const onOff = (v: boolean) => (v ? "Enabled" : "Disabled");

/** The tabs a device has. */
export const tabsOf = (cpe: { prod_code: string }) => (cpe.prod_code === SERVICE_PRODUCT ? DEVICE_TABS.filter((t) => t.id === "details") : DEVICE_TABS);

/** A missing value is the kit's dash, as on every Details tab (the table's columns say N/A, spec 3 §2.10). */
function Details({ c }: { c: CpeDetail }) {
  return (
    <DetailsTable
      items={[
        { label: "Name", value: c.cpe_name },
        { label: "Device ID", value: c.cpe_id },
        { label: "Product Code", value: c.prod_code },
        { label: "Description", value: c.description },
        { label: "Entity Name", value: c.entity_name },
        { label: "Account Name", value: c.account_name },
        { label: "Site Address", value: c.site_address },
        { label: "Shipping Address", value: c.shipping_address },
        { label: "Tracking number", value: c.tracking_number },
        { label: "State", value: c.state },
        { label: "Admin State", value: c.admin_state },
        { label: "Admin State Change at", value: formatTime(c.admin_state_change_at) },
        { label: "Op State", value: <OpState value={c.op_state} /> },
        { label: "Op State Change at", value: c.op_state_change_at ? formatTime(c.op_state_change_at) : null },
        { label: "Test Status", value: c.test_status },
        { label: "Speed Tester IP", value: c.speed_test_ip },
        { label: "Provider Service ID", value: c.provider_service_id },
        { label: "Client Circuit ID", value: c.client_circuit_id },
        { label: "WAN CIR/EIR Mbps", value: `${c.wan_cir_mbps} / ${c.wan_eir_mbps}` },
        { label: "Mode", value: c.mode },
        { label: "WAN addressing", value: c.wan_addressing === "dhcp" ? "DHCP" : `Static ${c.wan_cidr}, gateway ${c.wan_gateway}` },
        { label: "DNS servers", value: c.dns_servers.join(", ") },
        { label: "LAN address", value: c.lan_cidr },
        { label: "Region", value: c.region },
        { label: "Latitude, Longitude", value: c.latitude === null || c.longitude === null ? null : `${c.latitude}, ${c.longitude}` },
        { label: "Ping DNS IP", value: c.ping_dns_ip },
        { label: "Ping gateway IP", value: c.ping_gw_ip },
        { label: "IP monitor target", value: c.ip_monitor_target },
        { label: "Down notification interval", value: `${c.scan_gap} min` },
        { label: "Daily performance test", value: c.perf_test_scheduled ? `${hourLabel(c.perf_test_hour_of_day ?? 0)} UTC, peer ${c.perf_test_peer_region ?? ""}` : "Not scheduled" },
        { label: "Appflow", value: onOff(c.netflow_enabled) },
        { label: "iPerf server", value: onOff(c.iperf_server) },
        { label: "App visibility", value: onOff(c.app_visibility_enabled) },
        { label: "Geo visibility", value: onOff(c.monitor_inbound_pub_ip_enabled && c.monitor_outbound_pub_ip_enabled) },
        { label: "Block malicious sources", value: onOff(c.malicious_ip_block_enabled) },
        { label: "DDoS mitigation", value: onOff(c.denial_of_service_enabled) },
        { label: "Contact", value: [c.contact_name, c.contact_email, c.contact_phone].filter(Boolean).join(", ") },
        { label: "Ports", value: c.ports.map((p) => `${p.name} ${p.operational_state}`).join(", ") },
        { label: "Created at", value: formatTime(c.created_at) },
      ]}
    />
  );
}

/** The selected device as its tabs need it: its name and product, and its detail on the Details tab (null on Monitoring). */
export interface SelectedCpe {
  cpe_name: string;
  prod_code: string;
  detail: CpeDetail | null;
}

export function CpeTabs({ cpe, monitoring }: { cpe: SelectedCpe; monitoring: CpeMonitoring | null }) {
  const [params] = useSearchParams();
  const tabs = tabsOf(cpe);
  const tab = currentTab(params, tabs.map((t) => t.id));
  return (
    <SubjectTabs name={cpe.cpe_name} label={`Internet NID ${cpe.cpe_name}`} tabs={tabs} current={tab}>
      {tab === "details" && cpe.detail ? <Details c={cpe.detail} /> : null}
      {tab === "monitoring" && monitoring ? <DeviceMonitoringTab monitoring={monitoring} /> : null}
    </SubjectTabs>
  );
}
