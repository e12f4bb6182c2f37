import { iamRoles, type IamRole, type IamUser } from "../contract/iam.ts";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { IamSortColumn } from "../contract/iam.ts";
import { pgErrorCode, type DbOrTx } from "../db/client.ts";
import { columns, defineList, textColumn, type ListQuery, listTable } from "../lib/list.ts";
import { accounts, entities, iamUsers } from "../db/schema.ts";
import type { Caller, PlatformDeps } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { answerRow } from "../lib/table-answer.ts";
import { iamUserColumns } from "../contract/iam.shapes.ts";
import { newId } from "../lib/ids.ts";
import { takeLimit } from "./abuse-limits.ts";
import { createLinkToken, IAM_SETUP_LINK_TTL_MS, normalizeUsername, sendMail } from "./auth.ts";
import { entityMessages, iamMessages as iamWords } from "../contract/messages.ts";

// IAM users of the caller's account: create (with the first-password e-mail), list, remove,
// assign an entity, change the role. Every query is scoped by the caller's account.

export { iamRoles, type IamRole };

export const iamMessages = {
  notFound: "IAM user not found.",
  entityNotFound: entityMessages.notFound,
  exists: "An IAM user with this username already exists.",
  ownerName: "This username belongs to the account owner.",
  created: (username: string) => `Created IAM user ${username} successfully.`,
  removed: iamWords.removed,
  entityAssigned: entityMessages.assigned,
  roleUpdated: iamWords.roleUpdated,
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

export async function createIamUser(
  deps: PlatformDeps,
  who: Caller,
  input: { username: string; role: IamRole; entity_name: string; name: string },
  client: string | null,
): Promise<{ iamUserId: string; username: string }> {
  // Each invitation is an e-mail: limited per address, and per address and account; one that is not sent is given back.
  const invitation = await takeLimit(deps, "invite", client, who.accountId);
  try {
    return await inviteIamUser(deps, who, input);
  } catch (error) {
    await invitation.giveBack();
    throw error;
  }
}

async function inviteIamUser(
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
  const product = deps.config.productName;
  const inviter = who.iamUsername ?? account.username;
  // The user, the set-up link and its e-mail commit together (issue 63 item 6): an invitation is
  // never mailed for a user that was not created, and a user is never created without one.
  try {
    await deps.db.transaction(async (tx) => {
      await tx.insert(iamUsers).values({
        iamUserId,
        accountId: who.accountId,
        username,
        passwordHash: null,
        role: input.role,
        entityId,
        name: input.name,
        email: username,
      });
      const { token } = await createLinkToken(deps, "iam_setup", who.accountId, iamUserId, IAM_SETUP_LINK_TTL_MS, tx);
      const link = `${deps.config.consoleUrl}/new-iam-user-setup-template?iam_user_token=${encodeURIComponent(token)}`;
      await sendMail(
        deps,
        username,
        "set up your IAM user",
        [
          `${inviter} created an IAM user for you in the ${product} account ${account.name || account.domain}.`,
          "",
          `Username: ${username}`,
          `Role: ${input.role}`,
          "",
          "Choose your password here:",
          link,
          "",
          `The link works once and expires in ${IAM_SETUP_LINK_TTL_MS / 86_400_000} days.`,
        ],
        { tx, accountId: who.accountId, expiresAt: new Date(Date.now() + IAM_SETUP_LINK_TTL_MS) },
      );
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw new ApiError(409, iamMessages.exists);
    throw error;
  }
  return { iamUserId, username };
}

const { iam_user_id, username, role, ...person } = iamUserColumns.columns;
/** The list's select: the user's columns (contract/iam.shapes.ts) and its entity's name, in the answer's order. */
const iamColumns = { iam_user_id, username, role, entity_name: entities.entityName, ...person };

async function allIamUsers(db: DbOrTx, accountId: string): Promise<IamUserRow[]> {
  const rows = await db
    .select(iamColumns)
    .from(iamUsers)
    .leftJoin(entities, eq(entities.entityId, iamUsers.entityId))
    .where(eq(iamUsers.accountId, accountId))
    .orderBy(asc(iamUsers.createdAt), asc(iamUsers.username));
  return rows.map(answerRow);
}

/** Every IAM user of the account, oldest first (the spec's list-iam-user array). */
export const listIamUsers = (deps: PlatformDeps, who: Caller): Promise<IamUserRow[]> => allIamUsers(deps.db, who.accountId);

const iamEntityName = sql`coalesce((select e.entity_name from entities e where e.entity_id = u.entity_id), '')`;

async function iamUsersById(db: DbOrTx, accountId: string, ids: string[]): Promise<IamUserRow[]> {
  const rows = await db
    .select(iamColumns)
    .from(iamUsers)
    .leftJoin(entities, eq(entities.entityId, iamUsers.entityId))
    .where(and(eq(iamUsers.accountId, accountId), inArray(iamUsers.iamUserId, ids)));
  return rows.map(answerRow);
}

/** The account's IAM users: search in username, name, e-mail, role or entity. */
export const iamList = defineList<IamUserRow, IamSortColumn>({
  ...listTable("iam_users", "u", "iam_user_id"),
  search: [sql`lower(u.username)`, sql`lower(u.name)`, sql`lower(u.email)`, sql`lower(u.role)`, sql`lower(${iamEntityName})`],
  sortable: {
    ...columns("text", "u", ["username", "name", "role"]),
    ...columns("time", "u", ["created_at"]),
    entity_name: textColumn(iamEntityName),
  },
  defaultSort: "created_at",
  rows: iamUsersById,
  idOf: (u) => u.iam_user_id,
  notFound: () => new ApiError(404, iamMessages.notFound),
  all: (db, accountId) => allIamUsers(db, accountId),
});

/** One page of the account's IAM users, searched and sorted in SQL. */
export const queryIamUsers = (db: DbOrTx, accountId: string, query: ListQuery) => iamList.page(db, accountId, query);

/** Every IAM user the search selects, in the list's order, in batches (CSV export). */
export const exportIamUsers = (db: DbOrTx, accountId: string, query: ListQuery) => iamList.batches(db, accountId, query);

/** One IAM user of the account as the list shows it; another account's id: 404. */
export const iamUserDetail = (db: DbOrTx, accountId: string, iamUserId: string): Promise<IamUserRow> => iamList.one(db, accountId, iamUserId);

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
