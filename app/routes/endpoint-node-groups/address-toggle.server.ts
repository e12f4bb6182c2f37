import { z } from "zod";
import { toggleUnchangedError } from "../../components/toggle-dialog.tsx";
import { failureReply, submitForm } from "../../lib/action.server.ts";
import { apiPost, type ApiResult } from "../../lib/api.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import type { ToggleState } from "./model.ts";

/*
 * The server half of an address toggle dialog (./address-toggle.tsx: Setup DHCP Relay, Setup
 * VRRP, Configure LAN Interface): the form is its call's request (platform/contract/
 * nodes-forms.shapes.ts: the subject's id, `enabled`, the address, required while on by the
 * call's rule), a missing checkbox read as off, and the platform's current value refused as
 * unchanged (spec 2 §4's toggle-dialog rule); and the intent that reads the current value first.
 */

/** A toggle call's request: its fields (the body's shape) and its rule (the address while on). */
export interface ToggleRequest {
  shape: Record<string, z.ZodType>;
  rule: (body: { enabled?: boolean } & Record<string, unknown>, ctx: z.core.$RefinementCtx) => void;
}

/** A text field of the form's values by its name (the subject's id, the address under the call's name for it), "" for none. */
const textOf = (v: Record<string, unknown>, name: string) => (typeof v[name] === "string" ? v[name] : "");

export function addressToggleSchema(current: ToggleState, addressName: string, request: ToggleRequest) {
  return requestForm(
    z.object({ ...request.shape, enabled: z.boolean().default(false) }).superRefine((value, ctx) => {
      request.rule(value, ctx);
      const enabled = value.enabled;
      if (enabled === current.enabled && (!enabled || textOf(value, addressName) === current.address)) ctx.addIssue({ code: "custom", path: ["enabled"], message: toggleUnchangedError });
    }),
  );
}

/** The toggle calls, each with its body (the subject's id, the switch and the address under the call's own names), typed by the contract. */
const toggleCalls = {
  "configure-dhcp-relay": (r: Request, id: string, enabled: boolean, address: string) =>
    apiPost(r, "configure-dhcp-relay", { node_group_id: id, enabled, ...(address ? { server_ip: address } : {}) }),
  "configure-vrrp": (r: Request, id: string, enabled: boolean, address: string) => apiPost(r, "configure-vrrp", { node_group_id: id, enabled, ...(address ? { virtual_ip: address } : {}) }),
  "configure-lan-interface": (r: Request, id: string, enabled: boolean, address: string) =>
    apiPost(r, "configure-lan-interface", { node_id: id, enabled, ...(address ? { primary_ipv4_address: address } : {}) }),
};

export interface ToggleIntent<T> {
  /** The subject's id field, in the form and the platform's body ("node_group_id"). */
  idField: string;
  /** The subject now (its detail call), and its switch and address. */
  read: (request: Request, id: string) => Promise<ApiResult<T>>;
  current: (subject: T) => ToggleState;
  /** The platform call (toggleCalls) and its request. */
  call: keyof typeof toggleCalls;
  request: ToggleRequest;
}

/** The intent of an address toggle dialog: the subject's value now, the schema against it, the call, the toast. */
export function addressToggleIntent<T>(texts: { address: { name: string }; enabled: string; disabled: string }, o: ToggleIntent<T>) {
  const addressName = texts.address.name;
  return async (request: Request, formData: FormData) => {
    const subject = await o.read(request, String(formData.get(o.idField) ?? ""));
    if (!subject.ok) return failureReply(request, subject);
    return submitForm(request, formData, {
      schema: addressToggleSchema(o.current(subject.data), addressName, o.request),
      call: (v, req) => toggleCalls[o.call](req, textOf(v, o.idField), v.enabled, textOf(v, addressName)),
      fields: ["enabled", addressName],
      toast: (_, v) => (v.enabled ? texts.enabled : texts.disabled),
    });
  };
}

/** The constraints of an address toggle's form (the request's; the unchanged rule adds none). */
export const addressToggleConstraintSchema = (addressName: string, request: ToggleRequest) => addressToggleSchema({ enabled: false, address: "" }, addressName, request);
