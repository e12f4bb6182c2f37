import { accessTokens, accounts } from "../db/schema.ts";
import type { DbOrTx } from "../db/client.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { hashPassword, randomToken, sha256 } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";

/** Creates an account owner. `username` is an e-mail address; `accountDomain` must be unique. */
export async function createAccount(
  deps: { db: DbOrTx },
  input: { username: string; password: string; passwordHash?: string; name?: string; accountDomain?: string; subscriber?: string | null },
) {
  const accountId = newId("acct");
  const accountDomain = input.accountDomain ?? `${input.username.split("@")[0]!.replace(/[^a-z0-9-]/gi, "").toLowerCase() || "account"}-${accountId.slice(-6)}`;
  const row = {
    accountId,
    username: input.username.toLowerCase(),
    accountDomain,
    passwordHash: input.passwordHash ?? (await hashPassword(input.password)),
    name: input.name ?? "",
    email: input.username.toLowerCase(),
    subscriber: input.subscriber ?? null,
  };
  await deps.db.insert(accounts).values(row);
  return row;
}

/** Issues an opaque bearer token; only its hash is stored. */
export async function issueToken(deps: PlatformDeps, accountId: string, iamUserId: string | null = null): Promise<string> {
  const token = randomToken(32);
  await deps.db.insert(accessTokens).values({
    tokenHash: sha256(token),
    accountId,
    iamUserId,
    expiresAt: new Date(Date.now() + deps.config.tokenTtlHours * 3600_000),
  });
  return token;
}
