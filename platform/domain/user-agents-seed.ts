import { asc, eq } from "drizzle-orm";
import { endpoints } from "../db/schema.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { createUserAgent, linkUserAgent } from "./user-agents.ts";

/*
 * The demo account's user agents (platform/seed.ts), after its endpoints: the endpoints seed links
 * two laptops to the agent endpoint; these add agents on the office and cloud endpoints, one of them
 * linked to several endpoints (spec 2 §4).
 */
export async function seedUserAgents(deps: Pick<PlatformDeps, "db">, accountId: string) {
  const eps = await deps.db
    .select({ id: endpoints.epId, deployment: endpoints.deployment })
    .from(endpoints)
    .where(eq(endpoints.accountId, accountId))
    .orderBy(asc(endpoints.createdAt), asc(endpoints.epId));
  if (eps.length === 0) return;
  const of = (deployment: string) => eps.find((e) => e.deployment === deployment)?.id;
  const first = eps[0]!.id;
  const office = of("onprem") ?? first;
  const agent = of("agent") ?? first;
  const cloud = of("aws") ?? first;
  const agents = [
    { name: "Carol Workstation", email: "carol@demo.example", description: "Finance desk, head office", eps: [office] },
    { name: "Dave Field Tablet", email: "dave@demo.example", description: "Field engineer: office and remote", eps: [agent, office] },
    { name: "Analytics Runner", email: "data-team@demo.example", description: "Scheduled jobs in the analytics VPC", eps: [cloud, office] },
  ];
  for (const a of agents) {
    const [ep, ...more] = [...new Set(a.eps)];
    const id = await createUserAgent(deps.db, accountId, { name: a.name, email: a.email, description: a.description, ep_id: ep! });
    for (const other of more) await linkUserAgent(deps.db, accountId, { user_agent_id: id, ep_id: other });
  }
}
