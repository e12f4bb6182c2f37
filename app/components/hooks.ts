import { useEffect, useState } from "react";
import { useFormAction, useLoaderData, useNavigation, useRouteLoaderData, useSearchParams } from "react-router";
import type { FormConstraint } from "./constraints.server.ts";
import { asRole, canManageAccount, canWrite, type Role } from "../lib/roles.ts";

/*
 * The kit's hooks, the only copies in the console (screens import them from here): hydration,
 * pending state, and the caller's permission (role, useCanWrite, useDialog).
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

/**
 * The dialog the URL opens (`?dialog=`), or null for a readonly user: a dialog changes something
 * and they are offered no change, not even by URL (the action refuses them too: 403). `readable`
 * names the dialogs that only show something. With `useCanWrite` for the toolbar and the row menu,
 * this is the one readonly pattern.
 */
export function useDialog(readable: readonly string[] = []): string | null {
  const [params] = useSearchParams();
  const canWrite = useCanWrite();
  const dialog = params.get("dialog");
  return dialog && (canWrite || readable.includes(dialog)) ? dialog : null;
}

/**
 * The HTML constraints (required, maxLength…) of this route's form `name`, derived from its zod
 * schema on the server: the loader returns `constraints` (computed once per module:
 * `export const constraints = formConstraints({ create: CreateSchema })` in schemas.server.ts).
 * `useForm({ id, lastResult, constraint: useConstraint("create") })`.
 */
export function useConstraint(name: string): FormConstraint | undefined {
  // why: any route's loader data; only its `constraints` member is read, and checked.
  const loaderData: unknown = useLoaderData();
  if (!loaderData || typeof loaderData !== "object" || !("constraints" in loaderData)) return undefined;
  const constraints = loaderData.constraints as Record<string, FormConstraint> | null | undefined;
  return constraints?.[name];
}

/** Adds event listeners to `target`; returns the effect's cleanup that removes them. */
export function listen(target: EventTarget, handlers: Record<string, EventListener>): () => void {
  const entries = Object.entries(handlers);
  for (const [type, handler] of entries) target.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of entries) target.removeEventListener(type, handler);
  };
}
