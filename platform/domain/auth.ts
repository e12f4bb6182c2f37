import { and, desc, eq, gt, isNull, lt, ne, sql, type SQL } from "drizzle-orm";
import { accessTokens, accounts, iamUsers, oneTimeSecrets } from "../db/schema.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import type { PlatformDeps } from "../lib/context.ts";
import type { MailOptions } from "../mail/mailer.ts";
import { hashPassword, randomCode, randomToken, sha256, verifyPassword } from "../lib/crypto.ts";
import { ApiError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { forgetLoginFailures, takeLimit } from "./abuse-limits.ts";
import { createAccount, issueToken } from "./accounts.ts";
import { authMessages } from "../contract/messages.ts";

// Sign-in, recovery and registration: the rules behind POST token, register, forgot-password,
// reset-password and iam-user-set-password (docs/decisions/2026-11-22-auth-and-account-calls.md).

export const MFA_CODE_TTL_MS = 10 * 60_000;
export const MFA_CODE_ATTEMPTS = 5;
export const RESET_LINK_TTL_MS = 60 * 60_000;
export const IAM_SETUP_LINK_TTL_MS = 7 * 24 * 60 * 60_000;
/** At most this many password-reset e-mails per user and hour (more requests answer the same, silently). */
export const RESET_MAILS_PER_HOUR = 5;

export const messages = {
  badCredentials: "Incorrect username or password",
  badPasscode: "Invalid or expired passcode",
  passcodeSent: "We've emailed your passcode. Enter it to log in.",
  loggedOut: "Logged out",
  registered: authMessages.registered,
  accountExists: "An account with this email already exists.",
  resetSent: authMessages.resetSent,
  passwordUpdated: "Password updated.",
  passwordSet: "Password set.",
  badLink: "Invalid or expired link.",
} as const;

/** Someone who can sign in: an account owner or an IAM user. */
export interface Principal {
  kind: "account" | "iam_user";
  accountId: string;
  accountDomain: string;
  iamUserId: string | null;
  username: string;
  passwordHash: string | null;
  mfaEnabled: boolean;
}

export interface AccountChoice {
  account_id: string;
  account_domain: string;
}

export type LoginOutcome =
  | { kind: "token"; accessToken: string; sessionType: "account" | "iam_user"; username: string; accountId: string }
  | { kind: "passcode_sent" }
  | { kind: "choose_account"; accounts: AccountChoice[] };

export const normalizeUsername = (username: string) => username.trim().toLowerCase();

/** Every owner and IAM user whose username is this e-mail, in any account. */
export async function findPrincipals(deps: PlatformDeps, username: string): Promise<Principal[]> {
  const u = normalizeUsername(username);
  const owners = await deps.db
    .select({
      accountId: accounts.accountId,
      accountDomain: accounts.accountDomain,
      username: accounts.username,
      passwordHash: accounts.passwordHash,
      mfaEnabled: accounts.mfaEnabled,
    })
    .from(accounts)
    .where(eq(accounts.username, u));
  const members = await deps.db
    .select({
      accountId: iamUsers.accountId,
      accountDomain: accounts.accountDomain,
      iamUserId: iamUsers.iamUserId,
      username: iamUsers.username,
      passwordHash: iamUsers.passwordHash,
      mfaEnabled: iamUsers.mfaEnabled,
    })
    .from(iamUsers)
    .innerJoin(accounts, eq(accounts.accountId, iamUsers.accountId))
    .where(eq(iamUsers.username, u));
  return [
    ...owners.map((o) => ({ ...o, kind: "account" as const, iamUserId: null })),
    ...members.map((m) => ({ ...m, kind: "iam_user" as const })),
  ].sort((a, b) => a.accountDomain.localeCompare(b.accountDomain) || (a.kind === "account" ? -1 : 1));
}

/** The distinct accounts of some principals, for a 300 answer. */
export function accountChoices(principals: Principal[]): AccountChoice[] {
  const seen = new Map<string, AccountChoice>();
  for (const p of principals) if (!seen.has(p.accountId)) seen.set(p.accountId, { account_id: p.accountId, account_domain: p.accountDomain });
  return [...seen.values()];
}

/** Of several principals in one account (owner and IAM user with one e-mail), the owner wins. */
function pickOne(principals: Principal[]): Principal | undefined {
  return principals.find((p) => p.kind === "account") ?? principals[0];
}

/** Drizzle condition selecting the rows of one principal in a table with account_id and iam_user_id. */
function principalWhere(
  table: typeof oneTimeSecrets | typeof accessTokens,
  accountId: string,
  iamUserId: string | null,
): SQL {
  return and(eq(table.accountId, accountId), iamUserId ? eq(table.iamUserId, iamUserId) : isNull(table.iamUserId))!;
}

// ---------------------------------------------------------------------------------------------
// Locks and limits

/**
 * A transaction-scoped lock on one key, held until the transaction ends: the same on PGlite and
 * PostgreSQL, and across platform instances (docs/decisions/2026-11-23-hardening.md).
 */
export async function lockKey(tx: Pick<Db, "execute">, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** A new password: the failed sign-ins that were counted against this username (from any address) no longer count. */
export async function clearLoginFailures(db: DbOrTx, username: string): Promise<void> {
  await forgetLoginFailures(db, username);
}

// ---------------------------------------------------------------------------------------------
// Mail

/**
 * Enqueues an e-mail (issue 63 item 6): in `opts.tx`, the transaction of the change it belongs to,
 * so the message exists exactly when the change commits. It never fails on the SMTP server: the
 * mail queue sends it, retrying while the server is away (mail/mailer.ts).
 */
export async function sendMail(deps: PlatformDeps, to: string, subject: string, lines: string[], opts: MailOptions = {}): Promise<void> {
  const product = deps.config.productName;
  const text = [...lines, "", `— ${product}`].join("\n");
  await deps.mailer.send({ to, subject: `${product}: ${subject}`, text }, opts);
}

// ---------------------------------------------------------------------------------------------
// One-time secrets (MFA codes, reset and IAM-setup links): stored as SHA-256, expiring, single use.

const mfaHash = (p: { accountId: string; iamUserId: string | null }, code: string) => sha256(`mfa:${p.iamUserId ?? p.accountId}:${code}`);

/** The principal's one-time secrets of one purpose (a where clause). */
const secretsOf = (purpose: string, accountId: string, iamUserId: string | null) => and(eq(oneTimeSecrets.purpose, purpose), principalWhere(oneTimeSecrets, accountId, iamUserId));

async function invalidatePending(db: DbOrTx, purpose: string, accountId: string, iamUserId: string | null) {
  await db
    .update(oneTimeSecrets)
    .set({ usedAt: new Date() })
    .where(and(secretsOf(purpose, accountId, iamUserId), isNull(oneTimeSecrets.usedAt)));
}

/** E-mails a fresh six-digit login code; older pending codes stop working. */
export async function sendLoginCode(deps: PlatformDeps, p: Principal): Promise<void> {
  const code = randomCode();
  const expiresAt = new Date(Date.now() + MFA_CODE_TTL_MS);
  // The code and its e-mail commit together: never a mailed code that was not stored, nor a stored one never mailed.
  await deps.db.transaction(async (tx) => {
    await invalidatePending(tx, "mfa", p.accountId, p.iamUserId);
    await tx.insert(oneTimeSecrets).values({
      id: newId("ots"),
      purpose: "mfa",
      secretHash: mfaHash(p, code),
      accountId: p.accountId,
      iamUserId: p.iamUserId,
      expiresAt,
    });
    await sendMail(
      deps,
      p.username,
      "your login code",
      [
        `Your ${deps.config.productName} login code is ${code}`,
        "",
        `It expires in ${MFA_CODE_TTL_MS / 60_000} minutes and can be used once.`,
        "If you did not try to log in, change your password.",
      ],
      { tx, expiresAt },
    );
  });
}

/**
 * Checks a login code: the newest pending one, at most MFA_CODE_ATTEMPTS tries. The try is
 * counted first, in one conditional UPDATE (attempts < limit), so concurrent guesses cannot read
 * the same count and all be tried (issue 10 item 4).
 */
export async function verifyLoginCode(deps: PlatformDeps, p: Principal, otp: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: oneTimeSecrets.id })
    .from(oneTimeSecrets)
    .where(and(secretsOf("mfa", p.accountId, p.iamUserId), isNull(oneTimeSecrets.usedAt), gt(oneTimeSecrets.expiresAt, new Date())))
    .orderBy(desc(oneTimeSecrets.createdAt))
    .limit(1);
  if (!row) return false;
  const [tried] = await deps.db
    .update(oneTimeSecrets)
    .set({ attempts: sql`${oneTimeSecrets.attempts} + 1` })
    .where(and(eq(oneTimeSecrets.id, row.id), lt(oneTimeSecrets.attempts, MFA_CODE_ATTEMPTS), isNull(oneTimeSecrets.usedAt)))
    .returning({ secretHash: oneTimeSecrets.secretHash });
  if (!tried) return false;
  if (!/^\d{6}$/.test(otp) || mfaHash(p, otp) !== tried.secretHash) return false;
  const used = await deps.db
    .update(oneTimeSecrets)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeSecrets.id, row.id), isNull(oneTimeSecrets.usedAt)))
    .returning({ id: oneTimeSecrets.id });
  return used.length === 1;
}

/** Stores a link token (only its hash) and returns the token. */
export async function createLinkToken(
  deps: PlatformDeps,
  purpose: "password_reset" | "iam_setup",
  accountId: string,
  iamUserId: string | null,
  ttlMs: number,
  tx: DbOrTx = deps.db,
): Promise<{ token: string; id: string }> {
  const token = randomToken(32);
  const id = newId("ots");
  await tx.insert(oneTimeSecrets).values({
    id,
    purpose,
    secretHash: sha256(token),
    accountId,
    iamUserId,
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return { token, id };
}

/** Uses a link token up, atomically: at most one caller ever gets its principal back. */
async function consumeLinkToken(db: DbOrTx, purpose: "password_reset" | "iam_setup", token: string) {
  const now = new Date();
  const [row] = await db
    .update(oneTimeSecrets)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeSecrets.secretHash, sha256(token)),
        eq(oneTimeSecrets.purpose, purpose),
        isNull(oneTimeSecrets.usedAt),
        gt(oneTimeSecrets.expiresAt, now),
      ),
    )
    .returning({ accountId: oneTimeSecrets.accountId, iamUserId: oneTimeSecrets.iamUserId });
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Tokens and passwords

/** Revokes every live bearer token of a principal, but `exceptTokenHash` (the caller's own). */
export async function revokeTokens(db: DbOrTx, accountId: string, iamUserId: string | null, exceptTokenHash?: string) {
  await db
    .update(accessTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        principalWhere(accessTokens, accountId, iamUserId),
        isNull(accessTokens.revokedAt),
        exceptTokenHash ? ne(accessTokens.tokenHash, exceptTokenHash) : undefined,
      ),
    );
}

export async function revokeToken(deps: PlatformDeps, tokenHash: string) {
  await deps.db.update(accessTokens).set({ revokedAt: new Date() }).where(eq(accessTokens.tokenHash, tokenHash));
}

/** Sets a principal's password; returns its username (undefined when it no longer exists). */
export async function setPassword(db: DbOrTx, accountId: string, iamUserId: string | null, password: string) {
  const passwordHash = await hashPassword(password);
  if (iamUserId) {
    const [row] = await db
      .update(iamUsers)
      .set({ passwordHash })
      .where(and(eq(iamUsers.iamUserId, iamUserId), eq(iamUsers.accountId, accountId)))
      .returning({ username: iamUsers.username });
    return row?.username;
  }
  const [row] = await db.update(accounts).set({ passwordHash }).where(eq(accounts.accountId, accountId)).returning({ username: accounts.username });
  return row?.username;
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time on unknown usernames as on known ones. */
async function burnPasswordCheck(password: string) {
  dummyHash ??= hashPassword("not-a-real-password");
  await verifyPassword(password, await dummyHash);
}

// ---------------------------------------------------------------------------------------------
// The calls

/**
 * POST token. `client` is the caller's address (lib/client.ts): failures count against it alone
 * and against it with this username (domain/abuse-limits.ts), counted before the password is
 * checked, so that concurrent guesses cannot all pass; an attempt that ends otherwise (signed in,
 * a code sent, an account to choose) is given back.
 */
export async function login(
  deps: PlatformDeps,
  input: { username: string; password: string; account_id?: string | null; otp?: string | null },
  client: string | null,
): Promise<LoginOutcome> {
  const username = normalizeUsername(input.username);
  const attempt = await takeLimit(deps, "login", client, username);
  // The attempt counts as a failure unless it ends otherwise.
  let failed = false;
  let signedIn = false;
  try {
    let candidates = (await findPrincipals(deps, username)).filter((p) => p.passwordHash);
    const accountId = input.account_id?.trim() || null;
    if (accountId) candidates = candidates.filter((p) => p.accountId === accountId);

    const matches: Principal[] = [];
    for (const p of candidates) if (await verifyPassword(input.password, p.passwordHash)) matches.push(p);
    if (candidates.length === 0) await burnPasswordCheck(input.password);
    if (matches.length === 0) {
      failed = true;
      throw new ApiError(401, messages.badCredentials);
    }
    const choices = accountChoices(matches);
    if (choices.length > 1) return { kind: "choose_account", accounts: choices };
    const principal = pickOne(matches)!;

    if (principal.mfaEnabled) {
      const otp = input.otp?.trim();
      if (!otp) {
        // Every code is an e-mail: limited per address, and per address and user.
        const mail = await takeLimit(deps, "code", client, username);
        try {
          await sendLoginCode(deps, principal);
        } catch (error) {
          await mail.giveBack();
          throw error;
        }
        return { kind: "passcode_sent" };
      }
      if (!(await verifyLoginCode(deps, principal, otp))) {
        failed = true;
        throw new ApiError(401, messages.badPasscode);
      }
    }
    const accessToken = await issueToken(deps, principal.accountId, principal.iamUserId);
    signedIn = true;
    await attempt.succeeded();
    return {
      kind: "token",
      accessToken,
      sessionType: principal.kind,
      username: principal.username,
      accountId: principal.accountId,
    };
  } finally {
    if (!failed && !signedIn) await attempt.giveBack();
  }
}

/**
 * One account per e-mail through registration, also under concurrency: the check and the insert
 * run in one transaction under a lock on the e-mail, so of 10 simultaneous registrations one
 * succeeds and the others get 409 (issue 10 item 5). Not a unique constraint: several accounts
 * may share an e-mail when they were set up otherwise (the login's 300 answer exists for them).
 */
export async function register(deps: PlatformDeps, input: { username: string; password: string; subscriber?: string | null }, client: string | null) {
  const username = normalizeUsername(input.username);
  // Every attempt counts, taken e-mail or not (limits creating accounts, and probing for them).
  await takeLimit(deps, "register", client, username);
  // Hashed before the lock: the lock is held for two short queries only.
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    await lockKey(tx, `register:${username}`);
    const [existing] = await tx.select({ id: accounts.accountId }).from(accounts).where(eq(accounts.username, username)).limit(1);
    if (existing) throw new ApiError(409, messages.accountExists);
    await createAccount({ db: tx }, { username, password: input.password, passwordHash, subscriber: input.subscriber?.trim() || null });
  });
}

/**
 * E-mails a single-use reset link. Answers the same whether or not anybody matched; a 300
 * (detail: a JSON string of the account choices) when several accounts match and none was chosen.
 */
export async function forgotPassword(deps: PlatformDeps, input: { username: string; account_id?: string | null }, client: string | null): Promise<void> {
  // Counted before anybody is looked up, known e-mail or not: a 429 must not tell which are known.
  const asked = await takeLimit(deps, "reset", client, normalizeUsername(input.username));
  let principals = await findPrincipals(deps, input.username);
  const accountId = input.account_id?.trim() || null;
  if (accountId) principals = principals.filter((p) => p.accountId === accountId);
  const choices = accountChoices(principals);
  if (choices.length > 1) {
    // Nothing is sent until an account is chosen.
    await asked.giveBack();
    throw new ApiError(300, JSON.stringify(choices));
  }
  const p = pickOne(principals);
  if (!p) return;

  const recent = await deps.db
    .select({ id: oneTimeSecrets.id })
    .from(oneTimeSecrets)
    .where(and(secretsOf("password_reset", p.accountId, p.iamUserId), gt(oneTimeSecrets.createdAt, new Date(Date.now() - 60 * 60_000))))
    .limit(RESET_MAILS_PER_HOUR);
  if (recent.length >= RESET_MAILS_PER_HOUR) return;

  // The link and its e-mail commit together.
  await deps.db.transaction(async (tx) => {
    await invalidatePending(tx, "password_reset", p.accountId, p.iamUserId);
    const { token } = await createLinkToken(deps, "password_reset", p.accountId, p.iamUserId, RESET_LINK_TTL_MS, tx);
    const link = `${deps.config.consoleUrl}/reset-password-template?access_token=${encodeURIComponent(token)}`;
    await sendMail(
      deps,
      p.username,
      "reset your password",
      [
        `Someone asked to reset the password of ${p.username} (account ${p.accountDomain}).`,
        "",
        "Set a new password here:",
        link,
        "",
        "The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail.",
      ],
      { tx, expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS) },
    );
  });
}

export async function resetPassword(deps: PlatformDeps, input: { access_token: string; password: string }) {
  await deps.db.transaction(async (db) => {
    const who = await consumeLinkToken(db, "password_reset", input.access_token);
    if (!who) throw new ApiError(400, messages.badLink);
    const username = await setPassword(db, who.accountId, who.iamUserId, input.password);
    if (!username) throw new ApiError(400, messages.badLink);
    await revokeTokens(db, who.accountId, who.iamUserId);
    await clearLoginFailures(db, username);
  });
}

/** Sets a new IAM user's first password from the setup link. */
export async function setIamUserPassword(deps: PlatformDeps, input: { iam_user_token: string; password: string }) {
  await deps.db.transaction(async (db) => {
    const who = await consumeLinkToken(db, "iam_setup", input.iam_user_token);
    if (!who?.iamUserId) throw new ApiError(400, messages.badLink);
    const username = await setPassword(db, who.accountId, who.iamUserId, input.password);
    if (!username) throw new ApiError(400, messages.badLink);
    await revokeTokens(db, who.accountId, who.iamUserId);
    await clearLoginFailures(db, username);
  });
}
