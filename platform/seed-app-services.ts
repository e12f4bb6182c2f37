import { eq } from "drizzle-orm";
import { contacts, endpoints } from "./db/schema.ts";
import { addHosting, createAppService, createServiceNodeGroup, setAppServiceContacts } from "./domain/app-services.ts";
import { fleetOf } from "./fleet/runtime.ts";
import type { PlatformDeps } from "./lib/context.ts";
import { newId } from "./lib/ids.ts";

const subscription = "6b1f3c2a-9d4e-4f7a-8c21-5e0d9b7a4c13";

/** Demo data of issue #12: a service node group, an app service of every deployment, hostings, endpoints. */
export async function seedAppServices(deps: PlatformDeps, accountId: string) {
  const db = deps.db;
  const fleet = fleetOf(deps);
  const core = await createServiceNodeGroup(db, accountId, "Core DC");
  const crm = await createAppService(db, fleet, accountId, {
    app_service_name: "CRM",
    description: "Sales CRM behind an AWS PrivateLink endpoint service",
    location: "aws",
    region: "us-east-1",
    cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718",
    port: 443,
  });
  await addHosting(db, fleet, accountId, { app_service_id: crm, location: "aws", region: "eu-west-1", cloud_endpoint_service_name: "com.amazonaws.vpce.eu-west-1.vpce-svc-09f8e7d6c5b4a3921" });
  const erp = await createAppService(db, fleet, accountId, {
    app_service_name: "ERP",
    description: "ERP on Azure Private Link",
    location: "azure",
    proto: "tcp",
    port: 8443,
    region: "westeurope",
    cloud_endpoint_service_name: `/subscriptions/${subscription}/resourceGroups/rg-erp/providers/Microsoft.Network/privateLinkServices/pls-erp`,
  });
  await addHosting(db, fleet, accountId, {
    app_service_id: erp,
    location: "azure",
    region: "northeurope",
    cloud_endpoint_service_name: `/subscriptions/${subscription}/resourceGroups/rg-erp-dr/providers/Microsoft.Network/privateLinkServices/pls-erp-dr`,
  });
  const wiki = await createAppService(db, fleet, accountId, {
    app_service_name: "Intranet Wiki",
    location: "onprem",
    fqdn: "wiki.demo.example",
    service_node_group_id: core,
    proto: "tcp",
    port: 443,
  });
  await addHosting(db, fleet, accountId, { app_service_id: wiki, location: "onprem", fqdn: "wiki-dr.demo.example", service_node_group_id: core });
  await createAppService(db, fleet, accountId, {
    app_service_name: "Branch LAN",
    location: "network",
    real_subnets: ["10.20.1.0/24", "10.20.2.0/24"],
    service_node_group_id: core,
    address_translation_enabled: true,
    virtual_subnet_pools: ["10.20.0.0/16"],
    bgp_enabled: true,
    bgp_local_asn: 65001,
    bgp_peer_asn: 65002,
    bgp_peer_ip: "10.20.0.1",
  });
  const eps = [
    ["Sales laptops", "agent", "approved"],
    ["Boston office", "onprem", "pending"],
    ["Data Lake VPC", "aws", "approved"],
  ] as const;
  for (const [name, deployment, approvalStatus] of eps) {
    await db.insert(endpoints).values({ epId: newId("ep"), accountId, epName: name, deployment, appServiceId: crm, approvalStatus, region: deployment === "aws" ? "us-east-1" : "" });
  }
  const people = await db.select({ id: contacts.contactId, type: contacts.contactType }).from(contacts).where(eq(contacts.accountId, accountId));
  const business = people.find((c) => c.type === "business");
  const technical = people.find((c) => c.type === "technical");
  if (business && technical) await setAppServiceContacts(db, accountId, { app_service_id: crm, primary_contact_id: business.id, secondary_contact_id: technical.id });
}
