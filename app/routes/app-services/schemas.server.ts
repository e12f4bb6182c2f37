import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { appServiceLimits } from "../../../platform/contract/app-services.ts";
import { isAsn, isIp, isPort, netMessages } from "../../../platform/contract/net.ts";
import {
  AddHostingBody,
  AppServiceIdBody,
  ContactBody,
  type CreateGroupBody,
  EditBody,
  EpIdBody,
  RemoveHostingBody,
  ResizeBody,
  SetDescriptionBody,
  SetNameBody,
} from "../../../platform/contract/app-services.shapes.ts";
import { limits, line, multiline, text } from "../../../platform/lib/fields.ts";
import { cidrList } from "../../../platform/lib/net-fields.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { requiredText, subjectName, type SubjectFields } from "../services-shared/schemas.server.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The App Services screen's form schemas (spec 1 §5), used by the route's action only (no zod in
 * the browser). The platform checks the same rules again; its field errors come back beside the
 * fields (submitForm, app/lib/action.server.ts).
 */

const opt = (max: number = appServiceLimits.text) => line(max).optional();
const port = (required: boolean) =>
  z
    .string()
    .trim()
    .optional()
    .superRefine((s, ctx) => {
      if (!s) {
        if (required) ctx.addIssue({ code: "custom", message: "Port is required." });
      } else if (!/^\d+$/.test(s) || !isPort(Number(s))) ctx.addIssue({ code: "custom", message: netMessages.port });
    })
    .transform((s) => (s ? Number(s) : undefined));
const asn = z
  .string()
  .trim()
  .optional()
  .superRefine((s, ctx) => {
    if (s && (!/^\d+$/.test(s) || !isAsn(Number(s)))) ctx.addIssue({ code: "custom", message: netMessages.asn });
  })
  .transform((s) => (s ? Number(s) : undefined));
const cidrs = (what: string) =>
  cidrList(what)
    .optional()
    .transform((v) => v ?? []);
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

type CreateInput = {
  location: "aws" | "onprem" | "azure" | "network";
  [field: string]: unknown;
};

const blank = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** The deployment's required fields that are empty, in the form's order, with the platform's messages (platform/routes/app-services.ts). */
function missingFields(v: CreateInput): [string, string][] {
  const need: [string, string][] = [];
  const add = (field: string, message: string) => {
    if (blank(v[field])) need.push([field, message]);
  };
  switch (v.location) {
    case "aws":
      add("region", formMessages.regionRequired);
      add("cloud_endpoint_service_name", "Endpoint service name is required.");
      add("port", "Port is required.");
      break;
    case "onprem":
      add("fqdn", "FQDN is required.");
      add("service_node_group_id", "Service node group is required.");
      add("proto", "Protocol is required.");
      add("port", "Port is required.");
      break;
    case "azure":
      add("region", formMessages.regionRequired);
      add("proto", "Protocol is required.");
      add("port", "Port is required.");
      if (v.open_ai_private_link) {
        add("private_endpoint_ip_address", "Private endpoint IP is required.");
        add("remote_vnet_resource_id", "Remote VNET resource id is required.");
        add("azure_user_email", "Customer user email is required.");
      } else add("cloud_endpoint_service_name", "Private link service id is required.");
      break;
    case "network":
      add("real_subnets", formMessages.realSubnetsRequired);
      add("service_node_group_id", "Service node group is required.");
      if (v.bgp_enabled) {
        add("bgp_local_asn", formMessages.localAsnRequired);
        add("bgp_peer_asn", formMessages.peerAsnRequired);
        add("bgp_peer_ip", formMessages.peerIpRequired);
      }
      break;
  }
  return need;
}

export const CreateAppServiceSchema = z.object({
  location: z.enum(["aws", "onprem", "azure", "network"], { error: "Choose a deployment." }),
  app_service_name: requiredText(formMessages.nameRequired, appServiceLimits.name),
  description: multiline(appServiceLimits.description).optional(),
  region: opt(100),
  cloud_endpoint_service_name: opt(),
  proto: opt(10),
  port: port(false),
  fqdn: opt(appServiceLimits.fqdn),
  service_node_group_id: opt(100),
  real_subnets: cidrs("Real subnets"),
  address_translation_enabled: checkbox,
  virtual_subnet_pools: cidrs("Virtual subnet pools"),
  bgp_enabled: checkbox,
  bgp_local_asn: asn,
  bgp_peer_asn: asn,
  bgp_peer_ip: opt(45).superRefine((s, ctx) => {
    if (s && !isIp(s)) ctx.addIssue({ code: "custom", message: netMessages.ip(s) });
  }),
  open_ai_private_link: checkbox,
  private_endpoint_ip_address: opt(45),
  azure_user_email: opt(appServiceLimits.email),
  remote_vnet_resource_id: opt(),
}).check(
  // Every missing field at once, with or without JavaScript (issue 27 item 16): the deployment's
  // required fields (spec 1 §5) in the platform's words, checked here before the platform is
  // called; `when`: also when a field already failed (a missing name), not only after the rest passed.
  z.superRefine(
    (v, ctx) => {
      for (const [path, message] of missingFields(v)) ctx.addIssue({ code: "custom", path: [path], message, input: v });
    },
    { when: () => true },
  ),
);
export type CreateAppServiceValues = z.infer<typeof CreateAppServiceSchema>;

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
export const EditSchema = requestForm(z.object({ ...EditBody.shape, port: port(false) }));
export const IdSchema = requestForm(z.object(AppServiceIdBody.shape));
export const EndpointDecisionSchema = requestForm(z.object({ ...EpIdBody.shape, decision: z.enum(["approve", "reject"]) }));

/** Add Hosting: the location's required fields at once, in the form's order, each named by its own label (issue 27 item 16). */
export const AddHostingSchema = requestForm(
  z.object(AddHostingBody.shape).check(
    z.superRefine(
      (v, ctx) => {
        const need = (field: "region" | "cloud_endpoint_service_name" | "fqdn" | "service_node_group_id", message: string) => {
          if (!v[field]) ctx.addIssue({ code: "custom", path: [field], message, input: v });
        };
        if (v.location === "onprem") {
          need("fqdn", "FQDN is required.");
          need("service_node_group_id", "Node group is required.");
        } else {
          need("region", formMessages.regionRequired);
          need("cloud_endpoint_service_name", v.location === "aws" ? "Endpoint service name is required." : "Private link service id is required.");
        }
      },
      { when: () => true },
    ),
  ),
);
export const GroupSchema = requestForm(z.object({ service_node_group_name: text(limits.name, { min: 1, minMessage: formMessages.nodeGroupNameRequired }) }) satisfies z.ZodType<z.input<typeof CreateGroupBody>>);

export const removeSchema = (phrase: string) => confirmPhraseSchema(phrase, AppServiceIdBody.shape);
export const removeHostingSchema = (phrase: string) => confirmPhraseSchema(phrase, RemoveHostingBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs). */
export const constraints = formConstraints({ create: CreateAppServiceSchema, ...sharedSchemas, edit: EditSchema, hosting: AddHostingSchema });
