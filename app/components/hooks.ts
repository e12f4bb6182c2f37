import { useEffect, useState } from "react";
import { useFormAction, useNavigation, useRouteLoaderData } from "react-router";
import { asRole, canManageAccount, canWrite, type Role } from "../lib/roles.ts";

/*
 * The kit's two small hooks, the only copies in the console (screens import them from here).
 */

/** True once React has hydrated (false during the server render and the first client render). */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** Conform's field for its own intents (a blur re-validation): not the user's submit. */
const CONFORM_INTENT = "__intent__";

/**
 * True while a form of this page is being submitted (Epic Stack's useIsPending): by default any
 * non-GET submission to this route's action; narrow it with `intent` (the form's `intent` field),
 * `formAction` or `formMethod`. A Conform re-validation (on blur) is not "pending": the button
 * must not flicker while the user moves between fields.
 */
export function useIsPending({
  intent,
  formAction,
  formMethod = "POST",
  state = "non-idle",
}: {
  intent?: string;
  formAction?: string;
  formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE";
  state?: "submitting" | "loading" | "non-idle";
} = {}): boolean {
  const contextualFormAction = useFormAction();
  const navigation = useNavigation();
  const isPendingState = state === "non-idle" ? navigation.state !== "idle" : navigation.state === state;
  if (!isPendingState || !navigation.formMethod) return false;
  if (navigation.formData?.has(CONFORM_INTENT)) return false;
  if (navigation.formMethod.toUpperCase() !== formMethod) return false;
  if (intent !== undefined && navigation.formData?.get("intent") !== intent) return false;
  const action = formAction ?? contextualFormAction;
  return stripIndex(navigation.formAction ?? "") === stripIndex(action);
}

function stripIndex(action: string) {
  // The path alone: the dialog's query (?dialog=…) and "?index" of index routes do not matter.
  return action.split("?")[0]!.replace(/\/+$/, "") || "/";
}

/** The `intent` of this page's form being submitted now ("" if none): Conform's re-validations do not count. */
export function usePendingIntent(): string {
  const navigation = useNavigation();
  if (navigation.state !== "submitting" || navigation.formData?.has(CONFORM_INTENT)) return "";
  return String(navigation.formData?.get("intent") ?? "");
}

/** The caller's role, from the shell's loader (app/lib/roles.ts says what each may do). */
export function useRole(): Role {
  const shell = useRouteLoaderData("routes/_shell") as { user?: { role?: string } } | undefined;
  return asRole(shell?.user?.role);
}

/** Whether to render controls that change something: false for a readonly IAM user. */
export function useCanWrite(): boolean {
  return canWrite(useRole());
}

/** Billing and account deletion: the account's own session. */
export function useCanManageAccount(): boolean {
  return canManageAccount(useRole());
}
