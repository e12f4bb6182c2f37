import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { appServiceLimits } from "../../../platform/contract/app-services.ts";
import { isAsn, isIp, isPort, netMessages } from "../../../platform/contract/net.ts";
import { line, multiline } from "../../../platform/lib/fields.ts";
import { cidrList } from "../../../platform/lib/net-fields.ts";
import { requiredText, subjectSchemas, type SubjectFields } from "../services-shared/schemas.server.ts";

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
        if (required) ctx.addIssue({ code: "custom", message: "Port is required" });
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

export const CreateAppServiceSchema = z.object({
  location: z.enum(["aws", "onprem", "azure", "network"], { error: "Choose a deployment." }),
  app_service_name: requiredText("Name is required", appServiceLimits.name),
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
});
export type CreateAppServiceValues = z.infer<typeof CreateAppServiceSchema>;

/** The dialogs shared with Endpoints (../services-shared/schemas.server.ts). */
export const subject: SubjectFields = {
  noun: "App Service",
  idField: "app_service_id",
  nameField: "app_service_name",
  limits: appServiceLimits,
  resize: { hosting_id: z.string({ error: "Please select a hosting location." }).min(1, "Please select a hosting location.") },
};
export const sharedSchemas = subjectSchemas(subject);

export const EditSchema = z.object({ app_service_id: id("App Service id"), proto: opt(10), port: port(false), fqdn: opt(appServiceLimits.fqdn) });
export const IdSchema = z.object({ app_service_id: id("App Service id") });
export const EndpointDecisionSchema = z.object({ ep_id: z.string({ error: "Select an endpoint." }).min(1, "Select an endpoint."), decision: z.enum(["approve", "reject"]) });
export const AddHostingSchema = z.object({
  app_service_id: id("App Service id"),
  location: z.enum(["aws", "azure", "onprem"], { error: "Choose a location." }),
  region: opt(100),
  cloud_endpoint_service_name: opt(),
  fqdn: opt(appServiceLimits.fqdn),
  service_node_group_id: opt(100),
});
export const GroupSchema = z.object({ service_node_group_name: requiredText("Node group name is required", appServiceLimits.name) });

export const removeSchema = (phrase: string) => confirmPhraseSchema(phrase, { app_service_id: id("App Service id") });
export const removeHostingSchema = (phrase: string) => confirmPhraseSchema(phrase, { app_service_id: id("App Service id"), hosting_id: id("Hosting id") });
