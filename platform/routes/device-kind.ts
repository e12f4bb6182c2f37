import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { deviceLimits, deviceMessages } from "../contract/devices.ts";
import { DdosThresholdsBody, LanInterfaceRow } from "../contract/devices.shapes.ts";
import { lanInterfaces } from "../domain/device-ops.ts";
import { addAnnouncement, assignEntity, getThresholds, setShipping, setThresholds, setToggle, type DeviceKind } from "../domain/devices.ts";
import { answerDetail, answerQuery, requireWriter } from "../lib/context.ts";
import { body, line } from "../lib/fields.ts";
import { idsFilter, listQuery } from "../lib/list.ts";
import { defineCall, defineListCalls, DetailSchema } from "../lib/openapi.ts";
import { announcementFields, assignEntityFields, cpeId, metroId, shippingFields, ThresholdsBody, toggleBody } from "../contract/devices-fields.shapes.ts";

type Path = `/${string}`;
type ToggleField = Parameters<typeof setToggle>[4];

/** The words that differ between the two kinds' otherwise equal calls (their OpenAPI texts). */
const words = {
  schema: { cpe: "Cpe", metro: "Metro" }, // the schema names' stem: CpeId, CpeToggle, UpdateCpeShippingInfo…
  assignDescription: { cpe: "'Select Entity Name' when none is given; an unknown entity: 404. Answers 'Assigned entity successfully.'.", metro: "'Select Entity Name' when none is given. Answers 'Assigned entity successfully.'." },
  lanSummary: { cpe: "The LAN interfaces and their state (Reset LAN Ports)", metro: "The LAN interfaces and their state" },
  toggleDescription: { cpe: "An unchanged value: 409 (toggle dialogs, spec 3 §4). Answers 'Updated successfully.'.", metro: "An unchanged value: 409. Answers 'Updated successfully.'." },
  announcementNote: { cpe: "The fleet leaves the window out of uptime and alerts. ", metro: "" },
  removeSummary: { cpe: "Delete an Internet NID", metro: "Delete a Metro Ethernet NID" },
  removeAnswer: { cpe: deviceMessages.cpeRemoved, metro: deviceMessages.metroRemoved },
} satisfies Record<string, Record<DeviceKind, string>>;

type IdName = "cpe_id" | "metro_id";

/** The declarations (no handlers), each kind's with its own id field. */
function kindCalls<I extends IdName>(kind: DeviceKind, idName: I, tag: string) {
  const tags = [tag];
  // why the cast: a computed key loses its name in TypeScript; the object has exactly the kind's
  // id field, so each kind's calls take their own body (cpe_id or metro_id, never both).
  const idShape = { [idName]: kind === "cpe" ? cpeId() : metroId() } as Record<I, ReturnType<typeof cpeId>>;
  const IdQuery = z.object(idShape);
  const IdBody = body(idShape).strict().openapi(`${words.schema[kind]}Id`);
  const idQuery = IdQuery;

  const read = <const P extends Path, Q extends z.ZodType, R extends z.ZodType>(path: P, summary: string, query: Q, response: R, description = "Unknown id, or another account's: 404.") =>
    defineCall({ method: "get", path, tags, summary, description, query, response, errors: [404] });
  const write = <const P extends Path, B extends z.ZodType>(path: P, summary: string, description: string, b: B, errors: readonly (400 | 404 | 409)[] = [404]) =>
    defineCall({ method: "post", path, tags, summary, description, only: "writer", body: b, response: DetailSchema, errors });

  /** The kind's list call: its sortable columns, and the devices of one entity. */
  const list = <const P extends Path, Item extends z.ZodType, Page extends z.ZodType>(path: P, summary: string, what: string, sortable: readonly string[], item: Item, page: Page) =>
    defineListCalls({
      tags,
      item,
      page,
      list: {
        path,
        summary,
        rows: [what, "by name"],
        query: z.object({ ...listQuery(sortable), ids: idsFilter, entity_name: line(deviceLimits.name).optional().openapi({ description: "Only the devices of this entity" }) }),
      },
    }).list;

  const Toggle = toggleBody(idName, `${words.schema[kind]}Toggle`);
  const toggles = <const P extends Path>(list: readonly (readonly [P, string, ToggleField])[]) =>
    list.map(([path, summary, field]) => ({ field, route: write(path, summary, words.toggleDescription[kind], Toggle, [404, 409]) }));
  const thresholds = read(`/get_${kind}_denial_of_service_thresholds`, "The DDoS thresholds (spec 3 §9's defaults until set)", idQuery, DdosThresholdsBody);
  const setThresholdsCall = defineCall({
    method: "post",
    path: `/set_${kind}_denial_of_service_thresholds`,
    tags,
    summary: "Set the DDoS thresholds",
    description: `${idName} in the query; each flood's alert ≤ block ≤ max (422 naming the field). Answers 'DDoS thresholds updated.'.`,
    only: "writer",
    query: idQuery,
    body: ThresholdsBody,
    response: DetailSchema,
    errors: [404],
  });
  const assign = write(`/${kind}_assign_entity`, "Assign Entity", words.assignDescription[kind], body({ ...idShape, ...assignEntityFields() }).strict().openapi(`${words.schema[kind]}AssignEntity`));
  const lan = read(`/get_${kind}_lan_interfaces`, words.lanSummary[kind], idQuery, z.array(LanInterfaceRow));
  const shipping = write(`/update_${kind}_shipping_info`, "Track Shipping: the tracking number", "Answers 'Shipping info updated.'.", body({ ...idShape, ...shippingFields() }).strict().openapi(`Update${words.schema[kind]}ShippingInfo`));
  const announcement = write(
    `/${kind}_add_announcement`,
    "Announcement: a maintenance window",
    `start_time (UTC, on the hour) and duration (hours, ≥ 1); 'Please fill out all fields.' when one is missing. ${words.announcementNote[kind]}Answers 'Maintenance announcement created.'.`,
    body({ ...idShape, ...announcementFields }).strict().openapi(`${words.schema[kind]}AddAnnouncement`),
  );
  const remove = write(`/remove_${kind}`, words.removeSummary[kind], `Its announcements and tests go with it. Answers '${words.removeAnswer[kind]}'.`, IdBody);

  /** The shared calls themselves, for platform/contract/calls.ts (types only). */
  const calls = { thresholds, setThresholdsCall, assign, lan, shipping, announcement };
  return { IdQuery, IdBody, read, write, list, toggles, remove, calls };
}

/** The shared calls as the handlers read them: the id under either name. */
type WideCalls = ReturnType<typeof kindCalls<IdName>>;

/**
 * What Internet NIDs (routes/cpe.ts) and Metro Ethernet NIDs (routes/metro.ts) define alike, once
 * for either kind (spec 3 §5, §7.1, §7.2): the id's query and body, the read and write call shapes,
 * the list, the toggles, the DDoS thresholds, Assign Entity, the LAN interfaces, Track Shipping,
 * announcements and removal, each with the kind's paths, id field, tag and words. The kind's files
 * register each call where it stands in their order (the OpenAPI document keeps it).
 */
export function deviceKindCalls<I extends IdName>(kind: DeviceKind, idName: I, tag: string) {
  const typed = kindCalls(kind, idName, tag);
  // why the casts: the same objects, seen with the id under either name. Inside a function generic
  // over the id's name, zod's inferred body types stay unresolved, so the handlers read them
  // through this wide view; the kinds' files and the contract see each kind's own body.
  const { thresholds, setThresholdsCall, assign, lan, shipping, announcement } = (typed as unknown as WideCalls).calls;
  const key: IdName = idName;

  /** Registers the shared calls: each a function of the app, called where the kind's order has it. */
  const register = {
    toggles: (app: PlatformApp, routes: ReturnType<typeof typed.toggles>) => {
      for (const { field, route: typedRoute } of routes) {
        const route = typedRoute as unknown as ReturnType<WideCalls["toggles"]>[number]["route"];
        app.openapi(route, answerDetail(route, (deps, who, b) => setToggle(deps.db, who.accountId, kind, b[key], field, b.enabled), "Updated successfully."));
      }
    },
    thresholds: (app: PlatformApp) => {
      app.openapi(thresholds, answerQuery(thresholds, (deps, who, q) => getThresholds(deps.db, who.accountId, kind, q[key])));
      app.openapi(setThresholdsCall, async (c) => {
        const who = requireWriter(c);
        await setThresholds(c.get("deps").db, who.accountId, kind, c.req.valid("query")[key], c.req.valid("json"));
        return c.json({ detail: deviceMessages.thresholds }, 200);
      });
    },
    assign: (app: PlatformApp) => app.openapi(assign, answerDetail(assign, (deps, who, b) => assignEntity(deps.db, who.accountId, kind, b[key], b.new_entity_name), deviceMessages.assigned)),
    lan: (app: PlatformApp) => app.openapi(lan, answerQuery(lan, (deps, who, q) => lanInterfaces(deps, who.accountId, kind, q[key]))),
    shipping: (app: PlatformApp) => app.openapi(shipping, answerDetail(shipping, (deps, who, b) => setShipping(deps.db, who.accountId, kind, b[key], b.tracking_number), deviceMessages.shipping)),
    announcement: (app: PlatformApp) =>
      app.openapi(announcement, answerDetail(announcement, (deps, who, b) => addAnnouncement(deps.db, who.accountId, kind, b[key], b.start_time, b.duration), deviceMessages.announcement)),
  };

  return { ...typed, register };
}
