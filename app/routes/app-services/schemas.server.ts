import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { appServiceLimits } from "../../../platform/contract/app-services.ts";
import { isAsn, isCidr, isIp, isPort, netMessages, splitList } from "../../../platform/contract/net.ts";

/*
 * The App Services screen's form schemas (spec 1 §5), used by the route's action only (no zod in
 * the browser). The platform checks the same rules again; its field errors come back beside the
 * fields (platformFailure).
 */

const id = (what: string) => z.string({ error: `${what} is missing.` }).min(1, `${what} is missing.`);
const opt = (max: number = appServiceLimits.text) => z.string().trim().max(max, `Must be at most ${max} characters.`).optional();
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
const cidrs = z
  .string()
  .trim()
  .max(5000)
  .optional()
  .superRefine((s, ctx) => {
    for (const item of splitList(s ?? "")) if (!isCidr(item)) ctx.addIssue({ code: "custom", message: netMessages.cidr(item) });
  })
  .transform((s) => splitList(s ?? ""));
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

export const CreateAppServiceSchema = z.object({
  location: z.enum(["aws", "onprem", "azure", "network"], { error: "Choose a deployment." }),
  app_service_name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(appServiceLimits.name),
  description: opt(appServiceLimits.description),
  region: opt(100),
  cloud_endpoint_service_name: opt(),
  proto: opt(10),
  port: port(false),
  fqdn: opt(appServiceLimits.fqdn),
  service_node_group_id: opt(100),
  real_subnets: cidrs,
  address_translation_enabled: checkbox,
  virtual_subnet_pools: cidrs,
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

export const NameSchema = z.object({
  app_service_id: id("App Service id"),
  app_service_name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(appServiceLimits.name),
});
export const DescriptionSchema = z.object({ app_service_id: id("App Service id"), description: opt(appServiceLimits.description) });
export const EditSchema = z.object({ app_service_id: id("App Service id"), proto: opt(10), port: port(false), fqdn: opt(appServiceLimits.fqdn) });
export const ContactsSchema = z.object({ app_service_id: id("App Service id"), primary_contact_id: opt(100), secondary_contact_id: opt(100) });
export const ResizeSchema = z.object({
  app_service_id: id("App Service id"),
  hosting_id: z.string({ error: "Please select a hosting location." }).min(1, "Please select a hosting location."),
  direction: z.enum(["up", "down"]).default("up"),
});
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
export const GroupSchema = z.object({ service_node_group_name: z.string({ error: "Node group name is required" }).trim().min(1, "Node group name is required").max(200) });

export const removeSchema = (phrase: string) => confirmPhraseSchema(phrase, { app_service_id: id("App Service id") });
export const removeHostingSchema = (phrase: string) => confirmPhraseSchema(phrase, { app_service_id: id("App Service id"), hosting_id: id("Hosting id") });
