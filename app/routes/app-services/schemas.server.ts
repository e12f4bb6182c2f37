import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { appServiceLimits } from "../../../platform/contract/app-services.ts";
import { isAsn, isIp, isPort, netMessages } from "../../../platform/contract/net.ts";
import { line, multiline } from "../../../platform/lib/fields.ts";
import { cidrList } from "../../../platform/lib/net-fields.ts";
import { requiredText, subjectSchemas, type SubjectFields } from "../services-shared/schemas.server.ts";
import { formMessages } from "../../lib/messages.ts";
import { appServiceMessages } from "../../../platform/contract/messages.ts";

/*
 * The App Services screen's form schemas (spec 1 §5), used by the route's action only (no zod in
 * the browser). The platform checks the same rules again; its field errors come back beside the
 * fields (submitForm, app/lib/action.server.ts).
 */

const id = (what: string) => z.string({ error: `${what} is missing.` }).min(1, `${what} is missing.`);
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

/** The dialogs shared with Endpoints (../services-shared/schemas.server.ts). */
export const subject: SubjectFields = {
  noun: "App Service",
  idField: "app_service_id",
  nameField: "app_service_name",
  limits: appServiceLimits,
  resize: { hosting_id: z.string({ error: appServiceMessages.selectHosting }).min(1, appServiceMessages.selectHosting) },
};
export const sharedSchemas = subjectSchemas(subject);

// proto: the platform's choices ("" keeps the protocol).
export const EditSchema = z.object({
  app_service_id: id("App Service id"),
  proto: z.enum(["tcp", "udp", "ftp", ""], { error: "Protocol must be one of: tcp, udp, ftp" }).optional(),
  port: port(false),
  fqdn: opt(appServiceLimits.fqdn),
});
export const IdSchema = z.object({ app_service_id: id("App Service id") });
export const EndpointDecisionSchema = z.object({ ep_id: z.string({ error: appServiceMessages.selectEndpoint }).min(1, appServiceMessages.selectEndpoint), decision: z.enum(["approve", "reject"]) });
export const AddHostingSchema = z
  .object({
    app_service_id: id("App Service id"),
    location: z.enum(["aws", "azure", "onprem"], { error: formMessages.chooseLocation }),
    region: opt(100),
    cloud_endpoint_service_name: opt(),
    fqdn: opt(appServiceLimits.fqdn),
    service_node_group_id: opt(100),
  })
  .check(
    // Every missing field at once, in the form's order, each named by its own label (issue 27 item 16).
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
  );
export const GroupSchema = z.object({ service_node_group_name: requiredText(formMessages.nodeGroupNameRequired, appServiceLimits.name) });

export const removeSchema = (phrase: string) => confirmPhraseSchema(phrase, { app_service_id: id("App Service id") });
export const removeHostingSchema = (phrase: string) => confirmPhraseSchema(phrase, { app_service_id: id("App Service id"), hosting_id: id("Hosting id") });
