import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { DetailsTable } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import { DEVICE_TAB_IDS, DEVICE_TABS } from "../devices-shared/kind.ts";
import { DeviceMonitoringTab } from "../devices-shared/monitoring-tab.tsx";
import type { CpeMonitoring } from "../routers/monitoring.ts";
import { SFP_PRODUCT, type DevicePort, type MetroDetail } from "./model.ts";

/* The selected Metro Ethernet NID's tabs (spec 3 §2.11): Details (accordions General and Interfaces) and Monitoring. */

const vlan = (n: number | null) => (n === null ? "" : String(n));
const mbps = (n: number | null) => (n === null ? "" : `${n} Mbps`);

const portColumns: SimpleColumn<DevicePort>[] = [
  { id: "name", header: "Name", cell: (p) => p.name },
  { id: "status", header: "Status", cell: (p) => <span className={p.operational_state === "UP" ? "font-semibold" : "text-error font-semibold"}>{p.operational_state}</span> },
  { id: "speed", header: "Speed", cell: (p) => p.speed },
  { id: "intf", header: "Interface", cell: (p) => p.intf },
  { id: "cidr", header: "CIDR IP Address", cell: (p) => p.cidr_addr },
  { id: "data", header: "User data VLAN", cell: (p) => vlan(p.vlan_ids.data) },
  { id: "qinq", header: "Q in Q VLAN", cell: (p) => vlan(p.vlan_ids.q_in_q) },
  { id: "mgmt", header: "Mgmt VLAN", cell: (p) => vlan(p.vlan_ids.mgmt) },
];
// The SFP Type column only for BN-METRO-1000F (spec 3 §2.11).
const fibrePortColumns: SimpleColumn<DevicePort>[] = [...portColumns, { id: "sfp", header: "SFP Type", cell: (p) => p.sfp_type ?? "" }];

/** The General accordion (spec 3 §2.11 "Details show"), label → value, in the spec's order. */
const general: readonly (readonly [string, (m: MetroDetail) => ReactNode])[] = [
  ["Metro name", (m) => m.metro_name],
  ["Product code", (m) => m.prod_code],
  ["Account Id", (m) => m.account_id],
  ["Metro Id", (m) => m.metro_id],
  ["Description", (m) => m.description],
  ["WAN CIR", (m) => mbps(m.wan_cir_mbps)],
  ["WAN EIR", (m) => mbps(m.wan_eir_mbps)],
  ["Created at", (m) => formatTime(m.created_at)],
  ["Shipping address", (m) => m.shipping_address],
  ["Tracking number", (m) => m.tracking_number],
  ["Site address", (m) => m.site_address],
  ["State", (m) => m.state],
  ["Admin State", (m) => m.admin_state],
  ["Admin State Change at", (m) => formatTime(m.admin_state_change_at)],
  ["OP State", (m) => <OpState value={m.op_state} />],
  ["OP State Change at", (m) => formatTime(m.op_state_change_at)],
  ["Provider Service ID", (m) => m.provider_service_id],
  ["Client Circuit ID", (m) => m.client_circuit_id],
  ["Latitude", (m) => (m.latitude === null ? "" : String(m.latitude))],
  ["Longitude", (m) => (m.longitude === null ? "" : String(m.longitude))],
  ["Region", (m) => m.region],
  ["Entity ID", (m) => m.entity_id],
  ["Contact name", (m) => m.contact_name],
  ["Contact email", (m) => m.contact_email],
  ["Contact phone", (m) => m.contact_phone],
];

/** An accordion section: a native <details> (keyboard and screen readers know it; no JS). */
function Accordion({ title, children }: { title: string; children: ReactNode }) {
  return (
    <details className="collapse-arrow border-base-300 bg-base-100 collapse border" open>
      <summary className="collapse-title font-semibold">{title}</summary>
      <div className="collapse-content min-w-0">{children}</div>
    </details>
  );
}

export function MetroTabs({ metro, monitoring }: { metro: MetroDetail; monitoring: CpeMonitoring | null }) {
  const [params] = useSearchParams();
  const tab = currentTab(params, DEVICE_TAB_IDS);
  return (
    <SubjectTabs name={metro.metro_name} label={`Metro Ethernet NID ${metro.metro_name}`} tabs={DEVICE_TABS} current={tab}>
      {tab === "details" ? (
        <div className="space-y-2">
          <Accordion title="General">
            <DetailsTable items={general.map(([label, value]) => ({ label, value: value(metro) }))} />
          </Accordion>
          <Accordion title="Interfaces">
            <SimpleTable
              caption={`Interfaces of ${metro.metro_name}`}
              columns={metro.prod_code === SFP_PRODUCT ? fibrePortColumns : portColumns}
              rows={metro.ports}
              getRowId={(p) => p.intf}
              emptyMessage="No interfaces reported."
            />
          </Accordion>
        </div>
      ) : null}
      {tab === "monitoring" && monitoring ? <DeviceMonitoringTab monitoring={monitoring} /> : null}
    </SubjectTabs>
  );
}
