import { iamRoles, type IamRole, type IamUser } from "../contract/iam.ts";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { IamSortColumn } from "../contract/iam.ts";
import type { DbOrTx } from "./entities.ts";
import { inOrder, keysetBatches, likePatterns, orderKey, queryPage, type ListPage } from "../lib/list.ts";
import { accounts, entities, iamUsers } from "../db/schema.ts";
import type { Caller, PlatformDeps } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { createLinkToken, IAM_SETUP_LINK_TTL_MS, normalizeUsername, sendMail } from "./auth.ts";

// IAM users of the caller's account: create (with the first-password e-mail), list, remove,
// assign an entity, change the role. Every query is scoped by the caller's account.

export { iamRoles, type IamRole };

export const iamMessages = {
  notFound: "IAM user not found.",
  entityNotFound: "Entity not found.",
  exists: "An IAM user with this username already exists.",
  ownerName: "This username belongs to the account owner.",
  created: (username: string) => `Created IAM user ${username} successfully.`,
  removed: "IAM User removed.",
  entityAssigned: "Assigned entity successfully.",
  roleUpdated: "Updated IAM role successfully.",
} as const;

export type IamUserRow = IamUser;

async function entityIdByName(deps: PlatformDeps, accountId: string, entityName: string): Promise<string> {
  const [row] = await deps.db
    .select({ entityId: entities.entityId })
    .from(entities)
    .where(and(eq(entities.accountId, accountId), eq(entities.entityName, entityName)))
    .limit(1);
  if (!row) throw new ApiError(404, iamMessages.entityNotFound);
  return row.entityId;
}

const pgCode = (error: unknown): string | undefined => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
};

export async function createIamUser(
  deps: PlatformDeps,
  who: Caller,
  input: { username: string; role: IamRole; entity_name: string; name: string },
): Promise<{ iamUserId: string; username: string }> {
  const username = normalizeUsername(input.username);
  const entityId = await entityIdByName(deps, who.accountId, input.entity_name);
  const [account] = await deps.db
    .select({ username: accounts.username, name: accounts.name, domain: accounts.accountDomain })
    .from(accounts)
    .where(eq(accounts.accountId, who.accountId))
    .limit(1);
  if (!account) throw new ApiError(404, iamMessages.notFound);
  if (account.username === username) throw new ApiError(409, iamMessages.ownerName);
  const [existing] = await deps.db
    .select({ id: iamUsers.iamUserId })
    .from(iamUsers)
    .where(and(eq(iamUsers.accountId, who.accountId), eq(iamUsers.username, username)))
    .limit(1);
  if (existing) throw new ApiError(409, iamMessages.exists);

  const iamUserId = newId("iam");
  try {
    await deps.db.insert(iamUsers).values({
      iamUserId,
      accountId: who.accountId,
      username,
      passwordHash: null,
      role: input.role,
      entityId,
      name: input.name,
      email: username,
    });
  } catch (error) {
    if (pgCode(error) === "23505") throw new ApiError(409, iamMessages.exists);
    throw error;
  }

  try {
    const { token } = await createLinkToken(deps, "iam_setup", who.accountId, iamUserId, IAM_SETUP_LINK_TTL_MS);
    const link = `${deps.config.consoleUrl}/new-iam-user-setup-template?iam_user_token=${encodeURIComponent(token)}`;
    const product = deps.config.productName;
    const inviter = who.iamUsername ?? account.username;
    await sendMail(deps, username, "set up your IAM user", [
      `${inviter} created an IAM user for you in the ${product} account ${account.name || account.domain}.`,
      "",
      `Username: ${username}`,
      `Role: ${input.role}`,
      "",
      "Choose your password here:",
      link,
      "",
      `The link works once and expires in ${IAM_SETUP_LINK_TTL_MS / 86_400_000} days.`,
    ]);
  } catch (error) {
    // Without the e-mail the new user could never sign in: undo.
    await deps.db.delete(iamUsers).where(eq(iamUsers.iamUserId, iamUserId));
    throw error;
  }
  return { iamUserId, username };
}

const iamColumns = { user: iamUsers, entityName: entities.entityName };

function toIamUser({ user, entityName }: { user: typeof iamUsers.$inferSelect; entityName: string | null }): IamUserRow {
  return {
    iam_user_id: user.iamUserId,
    username: user.username,
    role: user.role,
    entity_name: entityName ?? null,
    name: user.name,
    email: user.email,
    phone: user.phone,
    address: user.address,
    mfa_enabled: user.mfaEnabled,
    mfa_type: user.mfaType ?? null,
    account_id: user.accountId,
    created_at: user.createdAt.toISOString(),
  };
}

/** Every IAM user of the account, oldest first (the spec's list-iam-user array). */
export async function listIamUsers(deps: PlatformDeps, who: Caller): Promise<IamUserRow[]> {
  const rows = await deps.db
    .select(iamColumns)
    .from(iamUsers)
    .leftJoin(entities, eq(entities.entityId, iamUsers.entityId))
    .where(eq(iamUsers.accountId, who.accountId))
    .orderBy(asc(iamUsers.createdAt), asc(iamUsers.username));
  return rows.map(toIamUser);
}

export interface IamListQuery {
  q?: string;
  sort?: string;
  page?: number;
  size?: number;
  ids?: string[];
}

const iamEntityName = sql`coalesce((select e.entity_name from entities e where e.entity_id = u.entity_id), '')`;

const iamSortColumns: Record<IamSortColumn, { expr: SQL; kind: "text" | "time" }> = {
  username: { expr: sql`u.username`, kind: "text" },
  name: { expr: sql`u.name`, kind: "text" },
  role: { expr: sql`u.role`, kind: "text" },
  entity_name: { expr: iamEntityName, kind: "text" },
  created_at: { expr: sql`u.created_at`, kind: "time" },
};

/** FROM … WHERE of an IAM user list: the account's users, each search word in username, name, e-mail, role or entity. */
function iamListFrom(accountId: string, query: IamListQuery): SQL {
  const where: SQL[] = [sql`u.account_id = ${accountId}`];
  for (const pattern of likePatterns(query.q)) {
    where.push(sql`(lower(u.username) like ${pattern} or lower(u.name) like ${pattern} or lower(u.email) like ${pattern}
      or lower(u.role) like ${pattern} or lower(${iamEntityName}) like ${pattern})`);
  }
  if (query.ids !== undefined) where.push(query.ids.length ? sql`u.iam_user_id in (${sql.join(query.ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`);
  return sql`from iam_users u where ${sql.join(where, sql` and `)}`;
}

function iamOrder(sort: string | undefined) {
  const desc = sort?.startsWith("-") ?? false;
  const column = iamSortColumns[(desc ? sort!.slice(1) : (sort ?? "created_at")) as IamSortColumn] ?? iamSortColumns.created_at;
  return { key: orderKey(column, sql`u.iam_user_id`, desc), desc };
}

async function iamUsersById(db: DbOrTx, accountId: string, ids: string[]): Promise<IamUserRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(iamColumns)
    .from(iamUsers)
    .leftJoin(entities, eq(entities.entityId, iamUsers.entityId))
    .where(and(eq(iamUsers.accountId, accountId), inArray(iamUsers.iamUserId, ids)));
  return inOrder(ids, rows.map(toIamUser), (r) => r.iam_user_id);
}

/** One page of the account's IAM users, searched and sorted in SQL. */
export async function queryIamUsers(db: DbOrTx, accountId: string, query: IamListQuery): Promise<ListPage<IamUserRow>> {
  const { key, desc } = iamOrder(query.sort);
  const { ids, total } = await queryPage(db, {
    from: iamListFrom(accountId, query),
    id: sql`u.iam_user_id`,
    key,
    desc,
    page: query.page ?? 1,
    size: query.size ?? 10,
  });
  return { items: await iamUsersById(db, accountId, ids), total };
}

/** Every IAM user the search selects, in the list's order, in batches (CSV export). */
export async function* exportIamUsers(db: DbOrTx, accountId: string, query: IamListQuery): AsyncGenerator<IamUserRow[]> {
  const { key, desc } = iamOrder(query.sort);
  for await (const ids of keysetBatches(db, { from: iamListFrom(accountId, query), id: sql`u.iam_user_id`, key, desc })) {
    yield await iamUsersById(db, accountId, ids);
  }
}

/** One IAM user of the account as the list shows it; another account's id: 404. */
export async function iamUserDetail(db: DbOrTx, accountId: string, iamUserId: string): Promise<IamUserRow> {
  const [row] = await iamUsersById(db, accountId, [iamUserId]);
  if (!row) throw new ApiError(404, iamMessages.notFound);
  return row;
}

export async function removeIamUser(deps: PlatformDeps, who: Caller, iamUserId: string) {
  const removed = await deps.db
    .delete(iamUsers)
    .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, who.accountId)))
    .returning({ id: iamUsers.iamUserId });
  if (removed.length === 0) throw new ApiError(404, iamMessages.notFound);
}

async function requireIamUser(deps: PlatformDeps, who: Caller, iamUserId: string) {
  const [row] = await deps.db
    .select({ id: iamUsers.iamUserId })
    .from(iamUsers)
    .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, who.accountId)))
    .limit(1);
  if (!row) throw new ApiError(404, iamMessages.notFound);
}

export async function assignIamUserEntity(deps: PlatformDeps, who: Caller, iamUserId: string, entityName: string) {
  await requireIamUser(deps, who, iamUserId);
  const entityId = await entityIdByName(deps, who.accountId, entityName);
  await deps.db
    .update(iamUsers)
    .set({ entityId })
    .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, who.accountId)));
}

export async function updateIamUserRole(deps: PlatformDeps, who: Caller, iamUserId: string, role: IamRole) {
  const updated = await deps.db
    .update(iamUsers)
    .set({ role })
    .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, who.accountId)))
    .returning({ id: iamUsers.iamUserId });
  if (updated.length === 0) throw new ApiError(404, iamMessages.notFound);
}
