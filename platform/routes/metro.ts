import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { ccmIntervals, deviceMessages, isPrintableAscii, metroSortable, oamLimits } from "../contract/devices.ts";
import { CreateMetroBody, Metro, MetroCreated, MetroDetail, MetroPage, MetroProduct, UpdateMetroInfoBody } from "../contract/devices.shapes.ts";
import { ccmIntervalList, createMetro, editOam, metroDetail, metroList, metroProductList, removeMetro, updateMetroInfo } from "../domain/metro.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { body, bool, expects, maxMessage } from "../lib/fields.ts";
import { defineCall } from "../lib/openapi.ts";
import { deviceKindCalls } from "./device-kind.ts";
import { metroId, vlanId, wholeIn } from "../contract/devices-fields.shapes.ts";

/*
 * Metro Ethernet NIDs (spec 3 §2.11, §5, §7.2): the spec's calls with their paths and fields; OAM
 * validated as IEEE 802.1ag / ITU-T Y.1731 define it. The activation test, its stream and report,
 * and the shared node calls: routes/devices.ts.
 */

const tags = ["Metro Ethernet NIDs"];
export const kind = deviceKindCalls("metro", "metro_id", tags[0]);
const { write } = kind;

export const listRoute = kind.list("/get_metro", "The caller's Metro Ethernet NIDs", "metro", metroSortable, Metro, MetroPage);
export const detailRoute = kind.read("/get_metro_detail", "One Metro Ethernet NID: General (every setting) and Interfaces", kind.IdQuery, MetroDetail);
export const productsRoute = defineCall({ method: "get", path: "/metro_products", tags, summary: "The Metro Ethernet NID products", response: z.array(MetroProduct) });
export const ccmRoute = defineCall({ method: "get", path: "/metro_ccm_interval", tags, summary: "The CCM intervals of IEEE 802.1ag", response: z.array(z.string()) });

export const createRoute = defineCall({
  method: "post",
  path: "/create_metro",
  tags,
  summary: "Create a Metro Ethernet NID (Create Device)",
  description:
    "Name and product code required; VLAN ids 1–4094, CIR and EIR numeric (Mbps); management VLAN default 100; SFP types (sfp_mmf, sfp_smf) only for BN-METRO-1000F. Errors as a detail list (one item per field). Answers 'Metro device created.' and metro_id.",
  only: "writer",
  body: CreateMetroBody,
  response: MetroCreated,
  errors: [404],
});
export const updateRoute = write("/update_metro_info", "Edit NID info", "The create fields and the description; name required, numeric CIR, EIR and VLAN ids. Answers 'Updated metro info successfully.'.", UpdateMetroInfoBody);

const asciiName = (what: string, range: { min: number; max: number }) =>
  z
    .string({ error: expects("a valid string") })
    .max(range.max, `${what} must be ${range.min}–${range.max} printable ASCII characters`)
    .refine((s) => s.length >= range.min && isPrintableAscii(s), `${what} must be ${range.min}–${range.max} printable ASCII characters`);

const OamBody = body({
  metro_id: metroId(),
  loopback_enabled: bool(),
  ccp_enabled: bool(),
  ccm_interval: z.string().max(10, maxMessage(10)).optional().openapi({ enum: [...ccmIntervals] }),
  md_name: z.string().max(200, maxMessage(200)).optional(),
  md_level: z.unknown().optional().openapi({ type: "integer", minimum: 0, maximum: 7 }),
  md_association: z.string().max(200, maxMessage(200)).optional(),
  mep_id: z.unknown().optional().openapi({ type: "integer", minimum: 1, maximum: 8191 }),
  vlan_id: z.unknown().optional().openapi({ type: "integer", minimum: 1, maximum: 4094 }),
})
  .strict()
  .transform((v, ctx) => {
    if (!v.ccp_enabled) return { metro_id: v.metro_id, loopback_enabled: v.loopback_enabled, ccp_enabled: false };
    // Only with continuity check on are the CFM fields checked (spec 3 §5).
    const checks = {
      ccm_interval: z.enum(ccmIntervals, { error: (iss) => (iss.input === undefined ? "Field required" : `CCM interval must be one of: ${ccmIntervals.join(", ")}`) }),
      md_name: asciiName("MD name", oamLimits.mdName),
      md_level: wholeIn("MD level", oamLimits.mdLevel.min, oamLimits.mdLevel.max),
      md_association: asciiName("MA name", oamLimits.maName),
      mep_id: wholeIn("MEP id", oamLimits.mepId.min, oamLimits.mepId.max),
      vlan_id: vlanId("VLAN id"),
    };
    const out: Record<string, unknown> = {};
    for (const [k, schema] of Object.entries(checks)) {
      const r = schema.safeParse(v[k as keyof typeof v]); // why: k is a key of `checks`, each a field of the body
      if (r.success) out[k] = r.data;
      else for (const issue of r.error.issues) ctx.addIssue({ code: "custom", path: [k], message: issue.message });
    }
    // why the casts below: each was parsed by its schema above; a failure added an issue, so zod never answers this object.
    return {
      metro_id: v.metro_id,
      loopback_enabled: v.loopback_enabled,
      ccp_enabled: true,
      ccm_interval: out.ccm_interval as string,
      md_name: out.md_name as string,
      md_level: out.md_level as number,
      md_association: out.md_association as string,
      mep_id: out.mep_id as number,
      vlan_id: out.vlan_id as number,
    };
  })
  .openapi("EditOam", {
    description: "IEEE 802.1ag / ITU-T Y.1731: with ccp_enabled, ccm_interval from metro_ccm_interval, md_level 0–7, mep_id 1–8191, vlan_id 1–4094, md_name 1–43 and md_association (MA name) 1–45 printable ASCII",
  });
export const oamRoute = write("/edit_oam", "Edit OAM info", "Loopback and continuity check; the CFM fields only when continuity check is on (stored then, cleared when off). Answers 'Updated OAM info successfully.'.", OamBody);

export const toggleRoutes = kind.toggles([
  ["/toggle_metro_netflow", "Edit Appflow (netflow export)", "netflow_enabled"],
  ["/toggle_metro_geo_visibility", "Geo visibility: the inbound and outbound flags together", "geo_visibility"],
  ["/toggle_metro_denial_of_service", "DDoS mitigation (the switch)", "denial_of_service_enabled"],
  ["/toggle_metro_malicious_ip_block", "Block malicious sources", "malicious_ip_block_enabled"],
] as const);

export function registerMetroCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => metroList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(detailRoute, answerQuery(detailRoute, (deps, who, q, remember) => metroDetail(deps, who.accountId, q.metro_id, remember)));
  app.openapi(productsRoute, (c) => c.json(metroProductList(), 200));
  app.openapi(ccmRoute, (c) => c.json(ccmIntervalList(), 200));
  app.openapi(createRoute, answerChange(createRoute, (deps, who, b) => createMetro(deps, who.accountId, b), (metro_id) => ({ metro_id, detail: deviceMessages.metroCreated })));
  app.openapi(updateRoute, answerDetail(updateRoute, (deps, who, b) => updateMetroInfo(deps, who.accountId, b), deviceMessages.metroUpdated));
  app.openapi(oamRoute, answerDetail(oamRoute, (deps, who, b) => editOam(deps.db, who.accountId, b), deviceMessages.oamUpdated));
  kind.register.toggles(app, toggleRoutes);
  kind.register.thresholds(app);
  kind.register.assign(app);
  kind.register.lan(app);
  kind.register.shipping(app);
  kind.register.announcement(app);
  app.openapi(kind.remove, answerDetail(kind.remove, (deps, who, b) => removeMetro(deps.db, who.accountId, b.metro_id), deviceMessages.metroRemoved));
}
