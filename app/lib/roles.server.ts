import { getAccountOrNull } from "./shell.server.ts";
import { requireSession } from "./session.server.ts";
import { asRole, canWrite, type Role } from "./roles.ts";

/**
 * The caller's role now (read from the platform on every request, so a demoted or deleted IAM
 * user loses the rights at once; GET list-account is fetched once per request and shared with
 * the shell).
 */
export async function getRole(request: Request): Promise<Role> {
  const session = await requireSession(request);
  if (session.session_type === "account") return "owner";
  const account = await getAccountOrNull(request);
  return asRole(account?.iam_user?.role);
}

/** For actions that change something: a readonly IAM user gets 403 (the platform would too). */
export async function requireWriter(request: Request): Promise<Role> {
  const role = await getRole(request);
  if (!canWrite(role)) throw new Response("Forbidden: your IAM role is readonly.", { status: 403 });
  return role;
}
