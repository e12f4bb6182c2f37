/*
 * Who may do what: the one rule every screen uses (console side; the platform enforces the same
 * with `writerOnly` / `requireWriter` / `requireOwner` in platform/lib/context.ts).
 *
 * - owner (an account session): everything.
 * - admin (IAM user): everything except billing, the account's SAML metadata URL and deleting the account.
 * - readonly (IAM user): sees every screen; is offered no control that changes anything (absent,
 *   not just refused), and the platform answers its mutations with 403.
 *
 * Dependency-free: imported by components (through `useRole`) and by server modules.
 */
export type Role = "owner" | "admin" | "readonly";

export function asRole(value: string | null | undefined): Role {
  return value === "admin" || value === "readonly" ? value : value === "owner" ? "owner" : "readonly";
}

/** May create, edit, delete anything outside billing and account deletion. */
export function canWrite(role: Role): boolean {
  return role !== "readonly";
}

/** Billing, the SAML metadata URL and deleting the account: the account's own session only. */
export function canManageAccount(role: Role): boolean {
  return role === "owner";
}
