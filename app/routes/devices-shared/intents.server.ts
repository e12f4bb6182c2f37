import { data } from "react-router";
import { deselect, detailOr, failureReply, submitForm, validateForm, type IntentHandler } from "../../lib/action.server.ts";
import { apiGet, apiPost, safeReply, type ApiResult } from "../../lib/api.server.ts";
import { toggleSchema } from "../../components/toggle.server.ts";
import { announcementCall, deviceMessages } from "../../../platform/contract/devices.ts";
import { deviceIdOf, deviceKinds, type DeviceKind, type PingAnswer, type TokenAnswer } from "./kind.ts";
import {
  AnnouncementSchema,
  AssignEntitySchema,
  DdosSchema,
  deviceIdField,
  DeviceIdSchema,
  PingSchema,
  removeSchema,
  ResetLanSchema,
  ShippingSchema,
  toggleFields,
} from "./schemas.server.ts";
import { ddosToggleCall, deviceToggle } from "./toggles.ts";

/*
 * The intents of the dialogs both kinds share (spec 3 §2.10 "Items common to all", §2.11): one
 * named function each, made for a kind (its id field and call names: deviceKinds, typed per kind
 * from the contract). A screen spreads them into
 * its own action: `intentAction({ ...deviceIntents("cpe"), …yours }, { readable: [...DEVICE_READABLE] })`.
 * Every form names its device as `device_id`; the kind's id field is set here.
 */

/** Intents a readonly user may send: they change nothing. */
export const DEVICE_READABLE = ["ping"] as const;


/** The device's detail, or the failed call. */
export const deviceDetail = (request: Request, kind: DeviceKind, id: string) => apiGet(request, deviceKinds[kind].calls.detail, deviceKinds[kind].id(id));

type DeviceDetail = Extract<Awaited<ReturnType<typeof deviceDetail>>, { ok: true }>["data"];

/** A form whose schema depends on what the platform says now: read the device first (a failure is a toast). */
async function withDevice(request: Request, formData: FormData, kind: DeviceKind, then: (device: DeviceDetail) => Promise<unknown>) {
  const id = String(formData.get("device_id") ?? "");
  const res = await deviceDetail(request, kind, id);
  if (!res.ok) return failureReply(request, res);
  return then(res.data);
}

export function deviceIntents(kind: DeviceKind) {
  const info = deviceKinds[kind];
  const idOf = (v: { device_id: string }) => info.id(v.device_id);

  const assign: IntentHandler = (request, formData) =>
    submitForm(request, formData, {
      schema: AssignEntitySchema,
      call: info.calls.assign,
      body: (v) => ({ ...idOf(v), new_entity_name: v.new_entity_name }),
      fields: ["new_entity_name"],
      toast: detailOr(deviceMessages.assigned),
    });

  const toggle: IntentHandler = (request, formData) =>
    withDevice(request, formData, kind, (device) => {
      const def = deviceToggle(kind, String(formData.get("toggle") ?? ""));
      if (!def) throw data({ message: "Unknown setting." }, { status: 400 });
      return submitForm(request, formData, {
        schema: toggleSchema(def.current(device), "enabled", toggleFields),
        call: def.calls[kind]!,
        body: (v) => ({ ...info.id(deviceIdOf(device)), enabled: v.enabled }),
        fields: ["enabled"],
        toast: detailOr(`${def.label} updated.`),
      });
    });

  const ddos: IntentHandler = (request, formData) =>
    withDevice(request, formData, kind, (device) =>
      submitForm(request, formData, {
        schema: DdosSchema,
        call: async (v, req): Promise<ApiResult<unknown>> => {
          const enabled = Boolean(v.enabled);
          if (enabled !== device.denial_of_service_enabled) {
            const switched = await apiPost(req, ddosToggleCall[kind], { ...idOf(v), enabled });
            if (!switched.ok) return switched;
          }
          const { device_id: _id, enabled: _enabled, ...thresholds } = v;
          return apiPost(req, info.calls.setThresholds, thresholds, idOf(v));
        },
        fields: ["enabled", "tcp_syn_flood_thresholds", "udp_thresholds", "icmp_thresholds"],
        toast: detailOr(deviceMessages.thresholds),
      }),
    );

  const resetLan: IntentHandler = (request, formData) =>
    submitForm(request, formData, {
      schema: ResetLanSchema,
      call: "reset_interface",
      body: (v) => ({ node_id: v.device_id, interface: v.interface }),
      fields: ["interface"],
      toast: detailOr(deviceMessages.interfaceReset),
    });

  const resetDevice: IntentHandler = (request, formData) =>
    submitForm(request, formData, {
      schema: DeviceIdSchema,
      call: "reset_node",
      body: (v) => ({ node_id: v.device_id, hard: true }),
      toast: detailOr(deviceMessages.deviceReset),
      errors: "toast",
    });

  const ping: IntentHandler = async (request, formData) => {
    const form = validateForm(formData, PingSchema);
    if (!form.ok) return form.reply;
    const { device_id, ip_address, tool } = form.value;
    const res = await apiGet(request, tool === "ping" ? "run_ping" : "run_traceroute", { node_id: device_id, ip_address });
    if (!res.ok) return failureReply(request, res, { submission: form.submission, fields: ["ip_address"] });
    const answer: PingAnswer = { ping: { tool, ip_address, output: res.data.result } };
    // The accepted submission too: the form leaves the errors of a refusal before it (issue 63 item 18).
    return { ...answer, result: safeReply(form.submission) };
  };

  const token: IntentHandler = async (request, formData) => {
    const form = validateForm(formData, DeviceIdSchema);
    if (!form.ok) return form.reply;
    const res = await apiPost(request, "generate_node_token", { node_id: form.value.device_id });
    if (!res.ok) return failureReply(request, res, { submission: form.submission });
    return { token: res.data } satisfies TokenAnswer;
  };

  const shipping: IntentHandler = (request, formData) =>
    submitForm(request, formData, {
      schema: ShippingSchema,
      call: info.calls.shipping,
      body: (v) => ({ ...idOf(v), tracking_number: v.tracking_number ?? "" }),
      fields: ["tracking_number"],
      toast: detailOr(deviceMessages.shipping),
    });

  const announcement: IntentHandler = (request, formData) =>
    submitForm(request, formData, {
      schema: AnnouncementSchema,
      // Spec 3 §5: the CPE call for an id starting with cpe, the metro call otherwise.
      call: (v, req) => {
        const when = { start_time: v.start_time, duration: v.duration };
        return announcementCall(v.device_id) === "cpe_add_announcement"
          ? apiPost(req, "cpe_add_announcement", { cpe_id: v.device_id, ...when })
          : apiPost(req, "metro_add_announcement", { metro_id: v.device_id, ...when });
      },
      fields: ["date", "hour", "duration"],
      toast: detailOr(deviceMessages.announcement),
    });

  const remove: IntentHandler = (request, formData) => {
    const id = deviceIdField.safeParse(formData.get("device_id")).data ?? "";
    return submitForm(request, formData, {
      schema: removeSchema(id),
      call: info.calls.remove,
      body: (v) => idOf(v),
      fields: ["confirm"],
      toast: detailOr(info.removed),
      redirect: (_, v) => deselect(request, v.device_id),
    });
  };

  return { assign, toggle, ddos, "reset-lan": resetLan, "reset-device": resetDevice, ping, token, shipping, announcement, remove };
}
