import { eq } from "drizzle-orm";
import { accounts, contactEntities, contacts, entities, iamUsers } from "./db/schema.ts";
import { createAccount } from "./domain/accounts.ts";
import { seedSupportDemo } from "./domain/support.ts";
import { seedDemoBilling } from "./domain/billing.ts";
import type { PlatformDeps } from "./lib/context.ts";
import { hashPassword } from "./lib/crypto.ts";
import { newId } from "./lib/ids.ts";
import { seedAppServices } from "./seed-app-services.ts";
import { seedEndpoints } from "./domain/endpoints-seed.ts";
import { seedUserAgents } from "./domain/user-agents-seed.ts";
import { seedDevices } from "./domain/devices-seed.ts";
import { seedNodes } from "./domain/nodes-seed.ts";
import { observe } from "../server/observe.mjs";

export const demoUsername = "demo@linkwise.example";
/**
 * The demo account's IAM users, one per role, each tied to an entity: they sign in with the demo
 * password, so anyone trying the console can see what an admin and a readonly user are offered.
 */
export const demoIamUsers = [
  { username: "operator@demo.example", name: "Olive Operator", role: "admin", entity: "hq" },
  { username: "auditor@demo.example", name: "Arthur Auditor", role: "readonly", entity: "branch" },
] as const;

/** On an empty database: one demo account with a few sample objects, and its credentials printed. */
export async function seedDemo(deps: PlatformDeps) {
  const existing = await deps.db.select({ id: accounts.accountId }).from(accounts).where(eq(accounts.username, demoUsername)).limit(1);
  if (existing.length > 0) return;
  const account = await createAccount(deps, {
    username: demoUsername,
    password: deps.config.demoPassword,
    name: "Demo Networks Inc.",
    accountDomain: "demo",
  });
  const hq = newId("ent");
  const branch = newId("ent");
  await deps.db.insert(entities).values([
    { entityId: hq, accountId: account.accountId, entityName: "Headquarters", description: "Head office and data centre", email: "noc@demo.example" },
    { entityId: branch, accountId: account.accountId, entityName: "Branch East", parentEntityId: hq, description: "East coast branch offices", email: "" },
  ]);
  const people = [
    ["Ada", "Lovelace", "ada@demo.example", "+1 555 0100", "business"],
    ["Grace", "Hopper", "grace@demo.example", "+1 555 0101", "technical"],
    ["Edsger", "Dijkstra", "edsger@demo.example", "+1 555 0102", "technical"],
  ] as const;
  for (const [i, [first, last, email, phone, type]] of people.entries()) {
    const contactId = newId("con");
    await deps.db.insert(contacts).values({
      contactId,
      accountId: account.accountId,
      firstName: first,
      lastName: last,
      email,
      phone,
      companyName: "Demo Networks Inc.",
      contactType: type,
    });
    await deps.db.insert(contactEntities).values({ contactId, entityId: i === 2 ? branch : hq, contactTypes: type });
  }
  const passwordHash = await hashPassword(deps.config.demoPassword);
  await deps.db.insert(iamUsers).values(
    demoIamUsers.map((u) => ({
      iamUserId: newId("iam"),
      accountId: account.accountId,
      username: u.username,
      passwordHash,
      role: u.role,
      entityId: u.entity === "hq" ? hq : branch,
      name: u.name,
      email: u.username,
    })),
  );
  await seedSupportDemo(deps.db, account.accountId, demoUsername);
  await seedDemoBilling(deps.db, account.accountId);
  await seedAppServices(deps, account.accountId);
  await seedEndpoints(deps, account.accountId);
  await seedUserAgents(deps, account.accountId);
  await seedDevices(deps, account.accountId);
  await seedNodes(deps, account.accountId);
  // The demo password on purpose (the README says where it comes from): not a secret of a deployment.
  observe("platform").logger.info(`demo account ready: username ${demoUsername} password ${deps.config.demoPassword}`);
  observe("platform").logger.info(`demo IAM users (same password): ${demoIamUsers.map((u) => `${u.username} (${u.role})`).join(", ")}`);
}
