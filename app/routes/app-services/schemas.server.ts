import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { appServiceLimits } from "../../../platform/contract/app-services.ts";
import { defaultVirtualPool, isPort, netMessages } from "../../../platform/contract/net.ts";
import {
  addHostingFields,
  addHostingRules,
  AppServiceIdBody,
  ContactBody,
  createAppServiceFields,
  createAppServiceRules,
  type CreateAppServiceValues,
  type CreateGroupBody,
  EditBody,
  EpIdBody,
  RemoveHostingBody,
  ResizeBody,
  SetDescriptionBody,
  SetNameBody,
} from "../../../platform/contract/app-services.shapes.ts";
import { limits, text } from "../../../platform/lib/fields.ts";
import { blankAsMissing, requestForm, typedList } from "../../lib/form-fields.server.ts";
import { subjectName, type SubjectFields } from "../services-shared/schemas.server.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The App Services screen's form schemas (spec 1 §5), used by the route's action only (no zod in
 * the browser). The platform checks the same rules again; its field errors come back beside the
 * fields (submitForm, app/lib/action.server.ts).
 */

/** A port as typed: blank is missing (the rules say when it is required), not a number says the range as out of range does. */
const port = () =>
  z
    .string()
    .trim()
    .optional()
    .superRefine((s, ctx) => {
      if (s && (!/^\d+$/.test(s) || !isPort(Number(s)))) ctx.addIssue({ code: "custom", message: netMessages.port });
    })
    .transform((s) => (s ? Number(s) : undefined));
const f = createAppServiceFields;
// The form's fields: the request's, a blank one missing, the lists typed comma-separated; network
// mode is the deployment's (the body sets it), not a field.
const { network_mode_enabled: _networkMode, ...createFields } = f;
const listMax = appServiceLimits.description;

/**
 * The body create-app-service gets from the form: the deployment's fields only, blank ones left
 * out, aws's protocol TCP, and without typed pools the default {ip}/16 of the first real subnet
 * (spec 1 §9). The form is checked by the call's own rules on this body (createAppServiceRules).
 */
export function createAppServiceBody(v: Omit<CreateAppServiceValues, "network_mode_enabled">): CreateAppServiceValues {
  const t = (s: string | undefined) => (s ? s : undefined);
  const base = { app_service_name: v.app_service_name, description: t(v.description), location: v.location };
  switch (v.location) {
    case "aws":
      return { ...base, region: t(v.region), cloud_endpoint_service_name: t(v.cloud_endpoint_service_name), proto: "tcp", port: v.port };
    case "onprem":
      return { ...base, fqdn: t(v.fqdn), service_node_group_id: t(v.service_node_group_id), proto: t(v.proto), port: v.port };
    case "azure": {
      const azure = { ...base, proto: t(v.proto), port: v.port, region: t(v.region) };
      return v.open_ai_private_link
        ? {
            ...azure,
            open_ai_private_link: true,
            private_endpoint_ip_address: t(v.private_endpoint_ip_address),
            remote_vnet_resource_id: t(v.remote_vnet_resource_id),
            azure_user_email: t(v.azure_user_email),
          }
        : { ...azure, cloud_endpoint_service_name: t(v.cloud_endpoint_service_name), open_ai_private_link: false };
    }
    case "network": {
      const real = v.real_subnets ?? [];
      const typed = v.virtual_subnet_pools ?? [];
      const pools = typed.length ? typed : real[0] ? [defaultVirtualPool(real[0])].filter(Boolean) : [];
      return {
        ...base,
        network_mode_enabled: true,
        real_subnets: real,
        service_node_group_id: t(v.service_node_group_id),
        address_translation_enabled: Boolean(v.address_translation_enabled),
        ...(v.address_translation_enabled ? { virtual_subnet_pools: pools } : {}),
        bgp_enabled: Boolean(v.bgp_enabled),
        ...(v.bgp_enabled ? { bgp_local_asn: v.bgp_local_asn, bgp_peer_asn: v.bgp_peer_asn, bgp_peer_ip: t(v.bgp_peer_ip) } : {}),
      };
    }
  }
  return { ...base };
}

/**
 * Create App Service (one form for every deployment): create-app-service's fields and rules
 * (platform/contract/app-services.shapes.ts). Every missing field at once, with or without
 * JavaScript (issue 27 item 16): the rules run also when a field already failed (`when`).
 */
export const CreateAppServiceSchema = requestForm(
  z
    .object({
      ...createFields,
      port: port(),
      service_node_group_id: blankAsMissing(f.service_node_group_id),
      real_subnets: typedList(f.real_subnets, listMax).optional(),
      virtual_subnet_pools: typedList(f.virtual_subnet_pools, listMax).optional(),
      bgp_local_asn: blankAsMissing(f.bgp_local_asn),
      bgp_peer_asn: blankAsMissing(f.bgp_peer_asn),
      azure_user_email: blankAsMissing(f.azure_user_email),
    })
    .check(z.superRefine((v, ctx) => createAppServiceRules(createAppServiceBody(v), ctx), { when: () => true })),
);

/*
 * The dialogs' schemas below are their calls' request schemas (platform/contract/app-services.shapes.ts,
 * issue 61 item 1), the console's words kept where the platform's differ (its FastAPI-style ones
 * have no full stop) and the screen's tests and users see the console's.
 */

const contactChoice = () => text(limits.id).default("");

/** The dialogs shared with Endpoints (../services-shared). Description and contacts: '' clears; a `required` field would refuse it (a select's 'None'). */
export const sharedSchemas = {
  rename: requestForm(z.object({ ...SetNameBody.shape, app_service_name: subjectName("App Service", appServiceLimits.name) })),
  describe: requestForm(z.object({ ...SetDescriptionBody.shape, description: SetDescriptionBody.shape.description.default("") })),
  // A contact is one of the account's or None (''): the request's union of an id and '' reads as
  // `required` to Conform, which would refuse None; the form takes a string within the id's limit.
  contacts: requestForm(z.object({ ...ContactBody.shape, primary_contact_id: contactChoice(), secondary_contact_id: contactChoice() })),
  resize: requestForm(z.object(ResizeBody.shape)),
};
export const subject: SubjectFields = { noun: "App Service", idField: "app_service_id", nameField: "app_service_name", schemas: sharedSchemas };

/** The port keeps the console's reading of what was typed: not a number says the range, as out of range does. */
export const EditSchema = requestForm(z.object({ ...EditBody.shape, port: port() }));
export const IdSchema = requestForm(z.object(AppServiceIdBody.shape));
export const EndpointDecisionSchema = requestForm(z.object({ ...EpIdBody.shape, decision: z.enum(["approve", "reject"]) }));

/** Add Hosting: the call's fields and rules (one location's fields rendered), every missing one at once (issue 27 item 16). */
export const AddHostingSchema = requestForm(
  z
    .object({ ...addHostingFields, service_node_group_id: blankAsMissing(addHostingFields.service_node_group_id) })
    .check(z.superRefine(addHostingRules, { when: () => true })),
);
export const GroupSchema = requestForm(z.object({ service_node_group_name: text(limits.name, { min: 1, minMessage: formMessages.nodeGroupNameRequired }) }) satisfies z.ZodType<z.input<typeof CreateGroupBody>>);

export const removeSchema = (phrase: string) => confirmPhraseSchema(phrase, AppServiceIdBody.shape);
export const removeHostingSchema = (phrase: string) => confirmPhraseSchema(phrase, RemoveHostingBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs). */
export const constraints = formConstraints({ create: CreateAppServiceSchema, ...sharedSchemas, edit: EditSchema, hosting: AddHostingSchema });
