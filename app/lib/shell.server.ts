import { asRole, type Role } from "./roles.ts";
import { apiGet, type ApiResult } from "./api.server.ts";
import { requireSession, type SessionData, type SessionType } from "./session.server.ts";

/** The IAM user of an iam_user session, as GET list-account answers it. */
export interface IamUserInfo {
  iam_user_id: string;
  username: string;
  role: string;
  entity_name: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  mfa_enabled: boolean;
  mfa_type: string | null;
}

/** GET list-account (decision 2026-11-22): the caller's own account. */
export interface AccountInfo {
  username: string;
  account_id: string;
  account_domain?: string;
  logo: string | null;
  mfa_enabled: boolean;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  session_type?: SessionType;
  iam_user: IamUserInfo | null;
}

/** What the shell shows on every protected page: no token ever goes to the browser. */
export interface ShellData {
  user: { username: string; session_type: SessionType; role: Role };
  account: { account_id: string; logo: string | null; name: string; username: string } | null;
  nav: NavPreference;
}

import { NAV_COOKIE, readNav, type NavPreference } from "./preferences.server.ts";
export { NAV_COOKIE };

// One GET list-account per request: the shell and the page below it share it.
const cache = new WeakMap<Request, Promise<ApiResult<AccountInfo>>>();

/** GET list-account for this request's session, called at most once per request. */
export function getAccount(request: Request): Promise<ApiResult<AccountInfo>> {
  let pending = cache.get(request);
  if (!pending) {
    pending = apiGet(request, "list-account");
    cache.set(request, pending);
    // A failure must not stay cached as a rejected promise for a later caller of the same request.
    pending.catch(() => cache.delete(request));
  }
  return pending;
}

/**
 * The account, or null when the platform does not answer it: the shell still renders (from the
 * session alone), and the page below says 'Service unavailable' inside it. A 401 still ends the
 * session (the redirect is rethrown).
 */
export async function getAccountOrNull(request: Request): Promise<AccountInfo | null> {
  try {
    const result = await getAccount(request);
    return result.ok && result.data && typeof result.data === "object" ? result.data : null;
  } catch (error) {
    if ((error as { init?: ResponseInit | null } | null)?.init?.status === 503) return null;
    throw error;
  }
}

/** The shell loader's data: the session (guarded) and the account for the logo, id and name. */
export async function getShellData(request: Request): Promise<{ session: SessionData; shell: ShellData }> {
  const session = await requireSession(request);
  const account = await getAccountOrNull(request);
  const shell: ShellData = {
    user: {
      username: account?.iam_user?.username ?? session.username,
      session_type: session.session_type,
      // The role the screens hide mutating controls by (app/lib/roles.ts).
      role: session.session_type === "account" ? "owner" : asRole(account?.iam_user?.role),
    },
    account: account
      ? {
          account_id: account.account_id,
          logo: account.logo || null,
          name: account.name || account.account_domain || account.username,
          username: account.username,
        }
      : null,
    nav: readNav(request),
  };
  return { session, shell };
}
