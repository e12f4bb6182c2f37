import { and, eq } from "drizzle-orm";
import { endpointNodeGroups, endpointNodes, serviceNodeGroups, serviceNodes } from "../db/schema.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { enableExternalCertificate } from "./certificates.ts";
import { makeCertificateSet } from "./certificates-make.ts";
import { generateCloudInit, generateVpnConfig, prepareOva } from "./node-files.ts";
import { createEndpointNode } from "./nodes-endpoint.ts";
import { findNode, setFormFactor, type NodeKind } from "./nodes-common.ts";
import { createServiceNode } from "./nodes-service.ts";
import { fleetOf } from "../fleet/runtime.ts";

/*
 * The demo account's nodes (platform/seed.ts, after the app services and endpoints): service and
 * endpoint nodes of every form factor in three groups each kind (the groups the earlier seeds made
 * are reused), one service node group with an external certificate that expires in 20 days. The
 * endpoint nodes the seeded endpoints run on (HQ Edge 01, East Edge 01) are reused by name (or made). Nodes
 * with a form factor registered a month ago, so their Monitoring tabs have history.
 */

const DAY = 86_400_000;
const hosted = (cidr: string, peer: string) => ({ hosted_region: "us-east-1", hosted_vpc_cidr: cidr, hosted_peer_ip: peer, hosted_peer_prefix: 30 });

/** The id of the account's group of that name, if the earlier seeds made it. */
async function groupId(deps: PlatformDeps, accountId: string, kind: NodeKind, name: string): Promise<string | undefined> {
  if (kind === "endpoint_node") {
    const [g] = await deps.db
      .select({ id: endpointNodeGroups.epNodeGroupId })
      .from(endpointNodeGroups)
      .where(and(eq(endpointNodeGroups.accountId, accountId), eq(endpointNodeGroups.epNodeGroupName, name)));
    return g?.id;
  }
  const [g] = await deps.db
    .select({ id: serviceNodeGroups.serviceNodeGroupId })
    .from(serviceNodeGroups)
    .where(and(eq(serviceNodeGroups.accountId, accountId), eq(serviceNodeGroups.serviceNodeGroupName, name)));
  return g?.id;
}

type Choice = { form: "ova" | "ami" | "hw" | "hosted_aws" | "skip"; shipping?: string; cidr?: string; peer?: string };

async function applyForm(deps: PlatformDeps, accountId: string, kind: NodeKind, id: string, c: Choice, ago: number) {
  if (c.form === "skip") return;
  if (c.form === "ova") await prepareOva(deps, accountId, id, kind);
  else if (c.form === "ami") await generateCloudInit(deps, accountId, id);
  else if (c.form === "hosted_aws") await generateVpnConfig(deps, accountId, { node_id: id, ...hosted(c.cidr!, c.peer!) });
  else await setFormFactor(deps.db, fleetOf(deps), accountId, await findNode(deps.db, accountId, id, kind), { form_factor: "hw", shipping_addr: c.shipping! });
  // Registered a while ago: the fleet clock takes it up (or down, in an outage) at its next tick.
  const at = new Date(Date.now() - ago);
  const values = { createdAt: new Date(at.getTime() - DAY), formFactorSetAt: at, registersAt: at, registeredAt: at, opStateChangeAt: at, adminStateChangeAt: at };
  if (kind === "endpoint_node") await deps.db.update(endpointNodes).set(values).where(eq(endpointNodes.epNodeId, id));
  else await deps.db.update(serviceNodes).set(values).where(eq(serviceNodes.serviceNodeId, id));
}

export async function seedNodes(deps: PlatformDeps, accountId: string) {
  const group = (kind: NodeKind, name: string) => groupId(deps, accountId, kind, name);

  const endpointPlan: { name: string; group: string; choice: Choice; ago: number }[] = [
    { name: "HQ Edge 01", group: "HQ Nodes", choice: { form: "hw", shipping: "Demo Networks Inc.\n1 Harbour Street\nBoston, MA 02110" }, ago: 40 * DAY },
    { name: "HQ Edge 02", group: "HQ Nodes", choice: { form: "hosted_aws", cidr: "10.100.0.0/24", peer: "169.254.20.2" }, ago: 35 * DAY },
    { name: "East Edge 01", group: "Branch Nodes", choice: { form: "ova" }, ago: 30 * DAY },
    { name: "East Cloud Edge", group: "Branch Nodes", choice: { form: "ami" }, ago: 20 * DAY },
    { name: "Warehouse Edge", group: "Warehouse Nodes", choice: { form: "skip" }, ago: 0 },
  ];
  for (const n of endpointPlan) {
    const existing = await group("endpoint_node", n.group);
    const input = existing
      ? ({ ep_node_name: n.name, new_ep_node_group: false, ep_node_group_id: existing } as const)
      : ({ ep_node_name: n.name, new_ep_node_group: true, ep_node_group_name: n.group } as const);
    // The endpoints seed makes the nodes its endpoints run on: those are given their form factor here.
    const made = await deps.db.select({ id: endpointNodes.epNodeId }).from(endpointNodes).where(and(eq(endpointNodes.accountId, accountId), eq(endpointNodes.epNodeName, n.name)));
    const ep_node_id = made[0]?.id ?? (await createEndpointNode(deps.db, accountId, input)).ep_node_id;
    await applyForm(deps, accountId, "endpoint_node", ep_node_id, n.choice, n.ago);
  }

  const servicePlan: { name: string; group: string; choice: Choice; ago: number; description: string }[] = [
    { name: "Core DC 01", group: "Core DC", choice: { form: "hw", shipping: "Demo Networks Inc.\nData Centre, 200 Summer Street\nBoston, MA 02210" }, ago: 60 * DAY, description: "Rack A4" },
    { name: "Core DC 02", group: "Core DC", choice: { form: "ova" }, ago: 45 * DAY, description: "VMware cluster" },
    { name: "AWS East 01", group: "Cloud Gateways", choice: { form: "hosted_aws", cidr: "10.110.0.0/24", peer: "169.254.30.2" }, ago: 25 * DAY, description: "Hosted in us-east-1" },
    { name: "AWS East 02", group: "Cloud Gateways", choice: { form: "ami" }, ago: 15 * DAY, description: "Own AMI in us-east-1" },
    { name: "Partner Edge", group: "Partner Access", choice: { form: "skip" }, ago: 0, description: "Waiting for the partner's hardware" },
  ];
  for (const n of servicePlan) {
    const existing = await group("service_node", n.group);
    const base = { service_node_name: n.name, description: n.description };
    const input = existing
      ? ({ ...base, new_service_node_group: false, service_node_group_id: existing } as const)
      : ({ ...base, new_service_node_group: true, service_node_group_name: n.group } as const);
    const { service_node_id } = await createServiceNode(deps.db, accountId, input);
    await applyForm(deps, accountId, "service_node", service_node_id, n.choice, n.ago);
  }

  // Cloud Gateways: an external certificate that expires in 20 days (the group screen warns).
  const cloud = await group("service_node", "Cloud Gateways");
  if (cloud) {
    const set = makeCertificateSet("gateways.demo.example", 20);
    await enableExternalCertificate(deps, accountId, cloud, { certificate: set.certificate, private_key: set.private_key, ca_chain: set.ca_chain });
  }
}
