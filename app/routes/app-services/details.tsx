import type { ReactNode } from "react";
import { DetailsTable, type DetailsItem } from "../../components/details-table.tsx";
import { OpState } from "../../components/op-state.tsx";
import { formatTime } from "../../lib/format.ts";
import { contactItems } from "../services-shared/details.ts";
import { deploymentLabels, protoLabel, type AppService } from "./model.ts";

/* The Details tab of one App Service (spec 1 §2): General, Specific (by deployment), Contacts. */

export const when = (iso: string | null | undefined) => (iso ? <time dateTime={iso}>{formatTime(iso)}</time> : "");
const yesNo = (b: boolean) => (b ? "Yes" : "No");

function specificItems(s: AppService): DetailsItem[] {
  switch (s.deployment) {
    case "aws":
      return [
        { label: "Region", value: s.region },
        { label: "Endpoint Service Name", value: s.cloud_endpoint_service_name },
      ];
    case "azure":
      return s.open_ai_private_link
        ? [
            { label: "Region", value: s.region },
            { label: "OpenAI/PaaS", value: "Yes" },
            { label: "Private Endpoint IP", value: s.private_endpoint_ip_address },
            { label: "Remote VNET Resource Id", value: s.remote_vnet_resource_id },
            { label: "Customer User Email", value: s.azure_user_email },
          ]
        : [
            { label: "Region", value: s.region },
            { label: "Private Link Service Id", value: s.cloud_endpoint_service_name },
          ];
    case "onprem":
      return [
        { label: "FQDN", value: s.fqdn },
        { label: "Service Node Group Id", value: s.service_node_group_id ?? "" },
      ];
    default:
      return [
        { label: "Service Node Group Id", value: s.service_node_group_id ?? "" },
        { label: "Real Subnets", value: s.real_subnets.join(", ") },
        { label: "Address Translation", value: yesNo(s.address_translation_enabled) },
        { label: "Virtual Subnet Pools", value: s.virtual_subnet_pools.join(", ") },
        { label: "Virtual Subnets", value: s.virtual_subnets.join(", ") },
        { label: "BGP", value: yesNo(s.bgp_enabled) },
        { label: "BGP Local ASN", value: s.bgp_local_asn ?? "" },
        { label: "BGP Peer ASN", value: s.bgp_peer_asn ?? "" },
        { label: "BGP Peer IP", value: s.bgp_peer_ip },
      ];
  }
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="mb-2 font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

export function Details({ s }: { s: AppService }) {
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Section id="as-general" title="General">
        <DetailsTable
          items={[
            { label: "Service Name", value: s.app_service_name },
            { label: "Service ID", value: s.app_service_id },
            { label: "Description", value: s.description },
            { label: "Deployment", value: deploymentLabels[s.deployment] },
            { label: "Protocol", value: s.proto ? protoLabel(s.proto) : "" },
            { label: "Port", value: s.port ?? "" },
            { label: "Admin State", value: s.admin_state },
            { label: "Admin State Change at", value: when(s.admin_state_change_at) },
            { label: "Op State", value: <OpState value={s.op_state} /> },
            { label: "Op State Change at", value: when(s.op_state_change_at) },
            { label: "Size", value: s.size },
            { label: "Health", value: s.health === null ? "" : `${s.health}%` },
            { label: "Created at", value: when(s.created_at) },
          ]}
        />
      </Section>
      <Section id="as-specific" title="Specific">
        <DetailsTable items={specificItems(s)} />
      </Section>
      <Section id="as-contacts" title="Contacts">
        <DetailsTable items={contactItems(s)} />
      </Section>
    </div>
  );
}
