import { timeCell } from "../../components/cell.ts";
import { timeColumn, type ListColumn } from "../../components/columns.ts";
import { opStateCell } from "../../components/op-state.tsx";
import { formatTime } from "../../lib/format.ts";
import type { FormFactor } from "../../../platform/contract/nodes.ts";
import { formFactorText } from "./node-kind.ts";

/* The columns both node tables have (spec 2 §2, §3), each written once; a kind's columns.ts orders them. */

interface NodeRow {
  admin_state: string;
  op_state: string;
  registered_at: string | null;
  form_factor: FormFactor | null;
  created_at: string;
}

/** An id in a monospace cell; plain in the CSV. */
export function nodeColumns<R extends NodeRow>(): Record<"admin" | "registered" | "op" | "formFactor", ListColumn<R>> & { created: (hidden?: boolean) => ListColumn<R> } {
  return {
    admin: { id: "admin_state", header: "Admin State", text: (r) => r.admin_state },
    registered: { id: "registered_at", header: "Registered at", className: "whitespace-nowrap", cell: (r) => timeCell(r.registered_at) ?? "Not registered", csv: (r) => formatTime(r.registered_at) },
    op: { id: "op_state", header: "Op State", cell: (r) => opStateCell(r.op_state), csv: (r) => r.op_state },
    formFactor: { id: "form_factor", header: "Form Factor", text: (r) => formFactorText(r.form_factor) },
    created: (hidden = false) => timeColumn("created_at", "Created at", { hidden }),
  };
}
