import { z } from "zod";
import { toggleUnchangedError } from "../../components/toggle-dialog.tsx";
import { failureReply, submitForm } from "../../lib/action.server.ts";
import { apiPost, type ApiResult } from "../../lib/api.server.ts";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { isCidr, isIpv4 } from "../../../platform/contract/net.ts";
import type { AddressToggleTexts, ToggleState } from "./model.ts";

/*
 * The server half of an address toggle dialog (./address-toggle.tsx: Setup DHCP Relay, Setup
 * VRRP, Configure LAN Interface): the schema, `enabled` (a missing checkbox is false) and one
 * address, required and checked while the switch is on, the platform's current value refused as
 * unchanged (spec 2 §4's toggle-dialog rule); and the intent that reads the current value first.
 */

/** An IPv4 address with a prefix length (LAN {ip}/24). */
const isIpv4WithPrefix = (s: string) => isCidr(s) && isIpv4(s.split("/")[0] ?? "");

export function addressToggleSchema<Extra extends z.ZodRawShape>(current: ToggleState, texts: Pick<AddressToggleTexts, "kind" | "required" | "invalid" | "address">, extra: Extra) {
  const valid = texts.kind === "ipv4" ? isIpv4 : isIpv4WithPrefix;
  const addressName = texts.address.name;
  const addressOf = (v: Record<string, unknown>) => (typeof v[addressName] === "string" ? (v[addressName] as string) : "");
  return z
    .object({ ...extra, enabled: z.boolean().optional(), [addressName]: z.string().trim().max(64, texts.invalid).optional() })
    .superRefine((value, ctx) => {
      const v = value as Record<string, unknown>;
      const enabled = Boolean(v.enabled);
      const address = addressOf(v);
      if (enabled && !address) ctx.addIssue({ code: "custom", path: [addressName], message: texts.required });
      else if (address && !valid(address)) ctx.addIssue({ code: "custom", path: [addressName], message: texts.invalid });
      if (enabled === current.enabled && (!enabled || address === current.address)) ctx.addIssue({ code: "custom", path: ["enabled"], message: toggleUnchangedError });
    })
    .transform((value) => ({ ...value, enabled: Boolean((value as Record<string, unknown>).enabled), address: addressOf(value as Record<string, unknown>) }));
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
  /** The subject's id field, in the form and the platform's body ("node_group_id"), and the message when it is missing. */
  idField: string;
  missing: string;
  /** The subject now (its detail call), and its switch and address. */
  read: (request: Request, id: string) => Promise<ApiResult<T>>;
  current: (subject: T) => ToggleState;
  /** The platform call (toggleCalls). */
  call: keyof typeof toggleCalls;
}

/** The intent of an address toggle dialog: the subject's value now, the schema against it, the call, the toast. */
export function addressToggleIntent<T>(texts: AddressToggleTexts, o: ToggleIntent<T>) {
  const extra = { [o.idField]: hiddenId(o.missing) };
  return async (request: Request, formData: FormData) => {
    const subject = await o.read(request, String(formData.get(o.idField) ?? ""));
    if (!subject.ok) return failureReply(request, subject);
    return submitForm(request, formData, {
      schema: addressToggleSchema(o.current(subject.data), texts, extra),
      call: (v, req) => {
        const id = (v as Record<string, unknown>)[o.idField];
        return toggleCalls[o.call](req, typeof id === "string" ? id : "", v.enabled, v.address);
      },
      fields: ["enabled", texts.address.name],
      toast: (_, v) => (v.enabled ? texts.enabled : texts.disabled),
    });
  };
}
