import { data } from "react-router";
import type { FormConstraint } from "../../components/constraints.server.ts";
import { currentTab } from "../../components/tabs.tsx";
import { intentAction, refreshIntent, type IntentHandler } from "../../lib/action.server.ts";

import { exportHref } from "../../lib/export.server.ts";
import { listScreenQuery, type TableOptions } from "../../lib/table.server.ts";
import { nodeIntents } from "./node-actions.server.ts";
import type { NodeCalls } from "./node-calls.server.ts";
import { nodeDialogData } from "./node-loader.server.ts";
import { nodeMonitoring } from "../../lib/node-monitoring.server.ts";
import type { NodeScreenData, NodeScreenKind } from "./node-screen.tsx";
import { nodeFormConstraints } from "./node-schemas.server.ts";

/*
 * The loader and the action of both node screens (node-screen.tsx), from the kind's definition:
 * the table (the platform pages, sorts and searches), the open dialog's data, the selected node's
 * detail and, on its Monitoring tab, its charts; the shared intents plus the kind's own.
 */

/**
 * The loader of a node screen: `calls` are the kind's (node-calls.server.ts nodeCalls), typed with
 * its row and detail; `own` the constraints of the kind's own dialogs.
 */
export function nodeLoader<Row, Detail extends Row>(kind: NodeScreenKind<Row, Detail>, options: TableOptions, calls: NodeCalls<Row, Detail>, own: Record<string, FormConstraint> = {}) {
  const { info } = kind;
  const constraints = { ...nodeFormConstraints(info), ...own };
  return async ({ request }: { request: Request }) => {
    const { state, headers, dialog, dialogId } = await listScreenQuery(request, options);
    const params = new URL(request.url).searchParams;
    // The selected node's detail is asked for beside the table (not after it: one round trip
    // less); it is shown only when the table's search still holds the node.
    const [first] = state.selected;
    const [table, dialogData, picked] = await Promise.all([
      calls.list(request, state, { getRowId: kind.screen.getRowId, fields: kind.fields }),
      nodeDialogData(request, info, dialog, dialogId, kind.view, calls.detail),
      first ? calls.detail(request, first).then((r) => (r.ok ? r.data : null)) : null,
    ]);
    const selected = picked && table.selected.length === 1 && table.selected[0] === first ? picked : null;
    const view = selected ? kind.view(selected) : null;
    const monitoring = view && currentTab(params, kind.tabIds) === "monitoring" ? await nodeMonitoring(request, view.id, view.name) : null;
    const answer: NodeScreenData<Row, Detail> & { detail: Detail | null } = {
      table,
      ...dialogData,
      selected,
      monitoring,
      exportLink: exportHref(`${info.path}/export.csv`, state),
    };
    // The forms' constraints only while one of the node dialogs (all of them read these) is open.
    return data({ ...answer, constraints: dialog ? constraints : {} }, { headers });
  };
}

/** The shared intents (the creation flow, the form factors, Delete), Refresh, and the kind's own. */
export const nodeAction = (kind: Pick<NodeScreenKind<never, never>, "info">, own: Record<string, IntentHandler> = {}) =>
  intentAction({ ...nodeIntents(kind.info), ...own, refresh: refreshIntent(`Refreshed ${kind.info.title}.`) }, { readable: ["refresh"] });
