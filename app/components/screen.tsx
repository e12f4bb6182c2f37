import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useRouteLoaderData, useSearchParams } from "react-router";
import { useCanWrite, useDialog } from "./hooks.ts";

/*
 * The frame of a screen: the document title ("Error: …" while a refused form is shown) and the
 * page's h1, and what a screen's component reads first (useScreen).
 */

/**
 * The page's <title>; React 19 hoists it into <head>, on the server too. Here, beside Screen (which
 * every screen renders), not in the form kit: a screen showing no form loads no form code for it.
 */
export function PageTitle({ title, error = false }: { title: string; error?: boolean }) {
  const root = useRouteLoaderData("root") as { productName?: string } | undefined;
  const product = root?.productName ?? "Linkwise";
  return <title>{`${error ? "Error: " : ""}${title} | ${product}`}</title>;
}

export function Screen({
  title,
  documentTitle = title,
  error = false,
  children,
}: {
  title: string;
  /** The document's title when it is not the h1's ("Delete Entity - Entities"); null: an open dialog sets it. */
  documentTitle?: string | null;
  error?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      {documentTitle === null ? null : <PageTitle title={documentTitle} error={error} />}
      <h1 id="page-title" className="text-2xl font-semibold">
        {title}
      </h1>
      {children}
    </section>
  );
}

/** The form reply in an action's answer (`{ result }` of submitForm's refusals), if any. */
export function replyOf(actionData: unknown): SubmissionResult<string[]> | undefined {
  if (!actionData || typeof actionData !== "object" || !("result" in actionData)) return undefined;
  return (actionData.result ?? undefined) as SubmissionResult<string[]> | undefined;
}

/** The form reply for the form of this `intent` only (a page with several forms: /account, /profile). */
export function replyFor(actionData: unknown, intent: string): SubmissionResult<string[]> | undefined {
  const result = replyOf(actionData);
  const sent = (result?.initialValue as Record<string, unknown> | undefined)?.intent;
  return sent === intent ? result : undefined;
}

/**
 * A screen's permission and URL state: `canWrite` (the row menu), the open `dialog` (null for a
 * readonly user but for `readableDialogs`) and its `dialogId`, and the action's form `result`
 * (`error`: it was refused).
 */
export function useScreen(actionData: unknown, readableDialogs: readonly string[] = []) {
  const [params] = useSearchParams();
  const canWrite = useCanWrite();
  const dialog = useDialog(readableDialogs);
  const result = replyOf(actionData);
  return { canWrite, dialog, dialogId: params.get("id"), result, error: result?.status === "error" };
}
