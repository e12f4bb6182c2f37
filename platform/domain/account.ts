import type { Account, AccountIamUser } from "../contract/account.ts";
import { and, eq } from "drizzle-orm";
import { pgErrorCode } from "../db/client.ts";
import { accounts, entities, iamUsers } from "../db/schema.ts";
import type { Caller, PlatformDeps } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { clearLoginFailures, normalizeUsername, revokeTokens, setPassword } from "./auth.ts";
import { accountPcapKeys, deleteAccountPcapObjects } from "./pcap-retention.ts";
import { addressProblem, metadataAddressMessages } from "../webhooks/address.ts";
import { accountMessages as accountWords } from "../contract/messages.ts";

// The caller's own account and IAM-user profile: list-account, update-account, update-iam-user,
// remove-account, the MFA switches and the SAML metadata URL.

export const accountMessages = {
  notFound: "Account not found.",
  updated: "Account updated.",
  removed: "Account removed.",
  mfaEnabled: "MFA enabled.",
  mfaDisabled: "MFA disabled.",
  idpUpdated: accountWords.idpUpdated,
  iamOnly: "Only an IAM user can do this; an account uses the account call.",
  cannotRemove: "The account still has data that cannot be removed. Remove it first.",
} as const;

export type ProfileField = "name" | "email" | "phone" | "address";
export type ProfileChange = { password: string } | { field: ProfileField; value: string };

export type IamUserView = AccountIamUser;
export type AccountView = Account;

/** The username a session may name in list-account, update-account and remove-account. */
function isOwnUsername(who: Caller, username: string | undefined | null): boolean {
  if (username == null || username.trim() === "") return true;
  const u = normalizeUsername(username);
  return u === who.accountUsername.toLowerCase() || (who.iamUsername != null && u === who.iamUsername.toLowerCase());
}

export async function getAccountView(deps: PlatformDeps, who: Caller, username?: string | null): Promise<AccountView> {
  if (!isOwnUsername(who, username)) throw new ApiError(404, accountMessages.notFound);
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.accountId, who.accountId)).limit(1);
  if (!account) throw new ApiError(404, accountMessages.notFound);
  let iamUser: IamUserView | null = null;
  if (who.iamUserId) {
    const [row] = await deps.db
      .select({ user: iamUsers, entityName: entities.entityName })
      .from(iamUsers)
      .leftJoin(entities, eq(entities.entityId, iamUsers.entityId))
      .where(and(eq(iamUsers.iamUserId, who.iamUserId), eq(iamUsers.accountId, who.accountId)))
      .limit(1);
    if (!row) throw new ApiError(404, accountMessages.notFound);
    iamUser = {
      iam_user_id: row.user.iamUserId,
      username: row.user.username,
      role: row.user.role,
      entity_name: row.entityName ?? null,
      name: row.user.name,
      email: row.user.email,
      phone: row.user.phone,
      address: row.user.address,
      mfa_enabled: row.user.mfaEnabled,
      mfa_type: row.user.mfaType ?? null,
    };
  }
  return {
    username: account.username,
    account_id: account.accountId,
    account_domain: account.accountDomain,
    logo: account.logo ?? null,
    mfa_enabled: account.mfaEnabled,
    name: account.name,
    email: account.email,
    phone: account.phone,
    address: account.address,
    session_type: who.sessionType,
    iam_user: iamUser,
  };
}

/** update-account: the owner's password or one profile field. A new password ends the owner's other sessions. */
export async function updateAccount(deps: PlatformDeps, who: Caller, username: string, change: ProfileChange) {
  if (normalizeUsername(username) !== who.accountUsername.toLowerCase()) throw new ApiError(404, accountMessages.notFound);
  if ("password" in change) {
    await deps.db.transaction(async (db) => {
      await setPassword(db, who.accountId, null, change.password);
      await revokeTokens(db, who.accountId, null, who.tokenHash);
      await clearLoginFailures(db, who.accountUsername);
    });
    return;
  }
  await deps.db
    .update(accounts)
    .set({ [change.field]: change.value })
    .where(eq(accounts.accountId, who.accountId));
}

/** update-iam-user: the calling IAM user's own password or one profile field. */
export async function updateIamUser(deps: PlatformDeps, who: Caller, change: ProfileChange) {
  const iamUserId = requireIamSession(who);
  if ("password" in change) {
    await deps.db.transaction(async (db) => {
      await setPassword(db, who.accountId, iamUserId, change.password);
      await revokeTokens(db, who.accountId, iamUserId, who.tokenHash);
      if (who.iamUsername) await clearLoginFailures(db, who.iamUsername);
    });
    return;
  }
  await deps.db
    .update(iamUsers)
    .set({ [change.field]: change.value })
    .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, who.accountId)));
}

export function requireIamSession(who: Caller): string {
  if (who.sessionType !== "iam_user" || !who.iamUserId) throw new ApiError(403, accountMessages.iamOnly);
  return who.iamUserId;
}

/** remove-account: revokes every token, then deletes the account and (by cascade) everything in it. */
export async function removeAccount(deps: PlatformDeps, who: Caller, username: string) {
  if (normalizeUsername(username) !== who.accountUsername.toLowerCase()) throw new ApiError(404, accountMessages.notFound);
  // Its uploaded captures go with it: the rows by cascade, the objects right after.
  const pcapKeys = await accountPcapKeys(deps, who.accountId);
  try {
    await deps.db.transaction(async (db) => {
      await revokeTokens(db, who.accountId, null);
      await db.delete(accounts).where(eq(accounts.accountId, who.accountId));
    });
  } catch (error) {
    // A table that references accounts without ON DELETE CASCADE: refuse rather than fail.
    if (pgErrorCode(error) === "23503") throw new ApiError(409, accountMessages.cannotRemove);
    throw error;
  }
  await deleteAccountPcapObjects(deps, who.accountId, pcapKeys);
}

export async function setAccountMfa(deps: PlatformDeps, who: Caller, enabled: boolean) {
  await deps.db.update(accounts).set({ mfaEnabled: enabled }).where(eq(accounts.accountId, who.accountId));
}

export async function setIamUserMfa(deps: PlatformDeps, who: Caller, enabled: boolean, type: "email" = "email") {
  const iamUserId = requireIamSession(who);
  await deps.db
    .update(iamUsers)
    .set({ mfaEnabled: enabled, mfaType: enabled ? type : null })
    .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, who.accountId)));
}

export async function getAccountIdp(deps: PlatformDeps, who: Caller): Promise<string> {
  const [row] = await deps.db.select({ metalink: accounts.idpMetalink }).from(accounts).where(eq(accounts.accountId, who.accountId)).limit(1);
  if (!row) throw new ApiError(404, accountMessages.notFound);
  return row.metalink;
}

/**
 * update-account-idp: the webhook address rules (webhooks/address.ts) apply to the metadata URL
 * now, and again when it is fetched: https, no credentials, never a loopback, private, link-local
 * or cloud-metadata address.
 */
export async function setAccountIdp(deps: PlatformDeps, who: Caller, metalink: string) {
  if (metalink) {
    const problem = await addressProblem(metalink, deps.config.webhookAllowHosts, undefined, metadataAddressMessages);
    if (problem) throw new ApiError(422, [{ loc: ["body", "metalink"], msg: problem, type: "value_error" }]);
  }
  await deps.db.update(accounts).set({ idpMetalink: metalink }).where(eq(accounts.accountId, who.accountId));
}
