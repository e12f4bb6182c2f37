import type { ReactNode } from "react";
import { Form, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useCanWrite } from "./hooks.ts";
import { dialogHref } from "../lib/url.ts";

/*
 * The toolbar of a screen's DataTable, one way everywhere: the create button (writers only: it
 * opens `?dialog=create`), Refresh (any role) and Export CSV (a plain download link), in that order.
 */

export function TableToolbar({
  createLabel,
  createDialog = "create",
  refresh = false,
  exportLink,
  children,
}: {
  /** "Add Contact", "Create Ticket"…; none: no create button. */
  createLabel?: string;
  createDialog?: string;
  refresh?: boolean;
  exportLink?: string;
  /** More buttons, after the create button. */
  children?: ReactNode;
}) {
  const location = useLocation();
  const canWrite = useCanWrite();
  return (
    <>
      {createLabel && canWrite ? (
        <a href={dialogHref(location, createDialog)} className="btn btn-primary btn-sm">
          {createLabel}
        </a>
      ) : null}
      {children}
      {refresh ? <RefreshButton /> : null}
      {exportLink ? (
        <a href={exportLink} className="btn btn-outline btn-sm" download>
          Export CSV
        </a>
      ) : null}
    </>
  );
}

/**
 * Refresh: a POST of intent "refresh" (readable by every role: `intentAction(…, { readable:
 * ["refresh"] })` with `refresh: refreshIntent("Refreshed X.")` from app/lib/action.server.ts),
 * which reads again and comes back with the screen's toast. Works without JavaScript.
 */
export function RefreshButton() {
  return (
    <Form method="post" preventScrollReset className="inline">
      <AuthenticityTokenInput name="csrf" />
      <button type="submit" name="intent" value="refresh" className="btn btn-outline btn-sm">
        Refresh
      </button>
    </Form>
  );
}
