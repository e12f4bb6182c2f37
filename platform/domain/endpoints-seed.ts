import { asc, eq } from "drizzle-orm";
import { appServices, contacts, userAgentEndpoints, userAgents } from "../db/schema.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { newId } from "../lib/ids.ts";
import { createEndpoint, createEndpointNodeGroup, configureProxying, editAgentDetails, setEndpointContact, setEndpointDescription } from "./endpoints.ts";
import { createEndpointNode } from "./nodes-endpoint.ts";

/*
 * The demo account's endpoints (platform/seed.ts): one of every kind, on the account's app
 * services (the app services module seeds them first; if there are none, two are made here),
 * two endpoint node groups, and user agents linked to the agent endpoint.
 */
export async function seedEndpoints(deps: PlatformDeps, accountId: string) {
  const db = deps.db;
  let services = await db
    .select({ id: appServices.appServiceId, deployment: appServices.deployment })
    .from(appServices)
    .where(eq(appServices.accountId, accountId))
    .orderBy(asc(appServices.createdAt));
  if (services.length === 0) {
    const web = newId("as");
    const net = newId("as");
    await db.insert(appServices).values([
      { appServiceId: web, accountId, appServiceName: "Intranet Portal", deployment: "onprem", fqdn: "intranet.demo.example", proto: "tcp", port: 443, description: "Employee portal" },
      { appServiceId: net, accountId, appServiceName: "Data Centre Subnets", deployment: "network", networkModeEnabled: true, realSubnets: ["10.20.0.0/16"] },
    ]);
    services = [
      { id: web, deployment: "onprem" },
      { id: net, deployment: "network" },
    ];
  }
  const app = services.find((s) => s.deployment !== "network") ?? services[0]!;
  const network = services.find((s) => s.deployment === "network") ?? app;
  const hq = (await createEndpointNodeGroup(db, accountId, { ep_node_group_name: "HQ Nodes" })).ep_node_group_id;
  const branch = (await createEndpointNodeGroup(db, accountId, { ep_node_group_name: "Branch Nodes" })).ep_node_group_id;
  // The nodes the endpoints below run on: Create Endpoint refuses a node that does not exist (issue 27 item 14).
  // Fresh ids: node ids are unique across accounts, and tests seed more than one account.
  const hqNode = (await createEndpointNode(db, accountId, { ep_node_name: "HQ Edge 01", new_ep_node_group: false, ep_node_group_id: hq })).ep_node_id;
  const eastNode = (await createEndpointNode(db, accountId, { ep_node_name: "East Edge 01", new_ep_node_group: false, ep_node_group_id: branch })).ep_node_id;

  const agent = await createEndpoint(deps, accountId, { ep_name: "Remote Workforce", app_service_id: app.id, deployment: "agent" });
  await editAgentDetails(db, accountId, { ep_id: agent, user_agent_dns_servers: ["10.0.0.2", "10.0.0.3"], user_agent_cidrs: ["10.0.0.0/8"] });
  const office = await createEndpoint(deps, accountId, { ep_name: "Head Office LAN", app_service_id: app.id, deployment: "onprem", ep_node_group_id: hq, ep_node_id: hqNode });
  await setEndpointDescription(db, accountId, office, "Users at the head office");
  const aws = await createEndpoint(deps, accountId, {
    ep_name: "Analytics VPC",
    app_service_id: app.id,
    deployment: "aws",
    region: "us-east-1",
    consumer_principle: "arn:aws:iam::123456789012:root",
  });
  await configureProxying(db, accountId, aws, true);
  await createEndpoint(deps, accountId, {
    ep_name: "Finance VNet",
    app_service_id: app.id,
    deployment: "azure",
    region: "eastus",
    consumer_principle: "6f1d2c3b-4a5e-4f60-9a7b-8c9d0e1f2a3b",
  });
  await createEndpoint(deps, accountId, {
    ep_name: "Branch East Routing",
    app_service_id: network.id,
    deployment: "network",
    ep_node_group_id: branch,
    ep_node_id: eastNode,
    real_subnets: ["192.168.10.0/24", "192.168.20.0/24"],
    bgp_enabled: true,
    bgp_local_asn: 65010,
    bgp_peer_asn: 65000,
    bgp_peer_ip: "192.168.10.1",
  });

  const people = await db.select({ id: contacts.contactId }).from(contacts).where(eq(contacts.accountId, accountId)).orderBy(asc(contacts.createdAt)).limit(2);
  if (people.length > 0) await setEndpointContact(db, accountId, { ep_id: office, primary_contact_id: people[0]!.id, secondary_contact_id: people[1]?.id ?? "" });

  for (const [name, email] of [
    ["Alice Laptop", "alice@demo.example"],
    ["Bob Laptop", "bob@demo.example"],
  ] as const) {
    const id = newId("ua");
    await db.insert(userAgents).values({ userAgentId: id, accountId, name, email, description: "Remote worker", appServiceId: app.id });
    await db.insert(userAgentEndpoints).values({ userAgentId: id, epId: agent });
  }
}
