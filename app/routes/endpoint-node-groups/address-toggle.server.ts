import { z } from "zod";
import { toggleUnchangedError } from "../../components/toggle-dialog.tsx";
import { isCidr, isIpv4 } from "../../../platform/contract/net.ts";

/*
 * The schema of an address toggle dialog (./address-toggle.tsx): `enabled` (a missing checkbox is
 * false) and one address, required and checked while the switch is on; the platform's current
 * value refused as unchanged (spec 2 §4's toggle-dialog rule).
 */

export type AddressKind = "ipv4" | "ipv4-prefix";

/** An IPv4 address with a prefix length (LAN {ip}/24). */
export const isIpv4WithPrefix = (s: string) => isCidr(s) && isIpv4(s.split("/")[0] ?? "");

export function addressToggleSchema<Extra extends z.ZodRawShape>(
  current: { enabled: boolean; address: string },
  addressName: string,
  what: { kind: AddressKind; required: string; invalid: string },
  extra: Extra,
) {
  const valid = what.kind === "ipv4" ? isIpv4 : isIpv4WithPrefix;
  return z
    .object({ ...extra, enabled: z.boolean().optional(), [addressName]: z.string().trim().max(64, what.invalid).optional() })
    .superRefine((value, ctx) => {
      const v = value as Record<string, unknown>;
      const enabled = Boolean(v.enabled);
      const address = typeof v[addressName] === "string" ? (v[addressName] as string) : "";
      if (enabled && !address) ctx.addIssue({ code: "custom", path: [addressName], message: what.required });
      else if (address && !valid(address)) ctx.addIssue({ code: "custom", path: [addressName], message: what.invalid });
      if (enabled === current.enabled && (!enabled || address === current.address)) ctx.addIssue({ code: "custom", path: ["enabled"], message: toggleUnchangedError });
    })
    .transform((value) => {
      const v = value as Record<string, unknown>;
      return { ...value, enabled: Boolean(v.enabled), address: typeof v[addressName] === "string" ? (v[addressName] as string) : "" };
    });
}
