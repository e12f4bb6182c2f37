import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { describe, expect, it } from "vitest";
import { contactLimits, contactTypes, type Contact } from "../../platform/contract/contacts.ts";
import { entityLimits } from "../../platform/contract/entities.ts";
import { iamLimits } from "../../platform/contract/iam.ts";
import { userAgentLimits, type UserAgent, type UserAgentEndpoint } from "../../platform/contract/user-agents.ts";
import { limits } from "../../platform/lib/fields.ts";
import type { IamUser } from "../../platform/contract/iam.ts";
import type { Entity } from "../routes/entities/schemas.ts";
import { CreateDialog as AddContactDialog, UpdateDialog as UpdateContactDialog } from "../routes/contacts/dialogs.tsx";
import { constraints as contactConstraints } from "../routes/contacts/schemas.server.tsx";
import { AddEntityDialog, AssignParentDialog, EditEntityDialog } from "../routes/entities/dialogs.tsx";
import { constraints as entityConstraints } from "../routes/entities/schemas.server.ts";
import { AssignDialog, CreateDialog, RoleDialog } from "../routes/iam/dialogs.tsx";
import { constraints as iamConstraints } from "../routes/iam/schemas.server.ts";
import { CreateDialog as CreateUserAgentDialog, LinkDialog } from "../routes/user-agents/dialogs.tsx";
import { constraints as userAgentConstraints } from "../routes/user-agents/schemas.server.ts";
import type { Constraint, FormConstraint } from "./constraints.server.ts";
// forms-rest: the imports of the screens converted with Contacts' Assign Entity.
import { ticketLimits, type Ticket } from "../../platform/contract/support.ts";
import { AssignDialog as AssignContactDialog } from "../routes/contacts/dialogs.tsx";
import { CreateTicketDialog, ReplyDialog } from "../routes/support/dialogs.tsx";
import { constraints as supportConstraints } from "../routes/support/schemas.server.ts";
// forms-devices:
import { announcementLimits, ddosFloods, ddosMax, ddosThresholds, deviceLimits, oamLimits, type CpeDetail } from "../../platform/contract/devices.ts";
import { opsLimits } from "../../platform/contract/operations.ts";
import { DeviceDialogs } from "../routes/devices-shared/dialogs.tsx";
import { CreateDeviceDialog, EditInfoDialog, EditSiteDialog, NetworkInfoDialog, OneValueDialog, PerfTestDialog, StopServiceDialog } from "../routes/routers/dialogs.tsx";
import { SpeedTestDialog } from "../routes/routers/speed-test.tsx";
import { removeSchema } from "../routes/devices-shared/schemas.server.ts";
import { StartActivationDialog } from "../routes/devices-shared/activation-start.tsx";
import { formConstraints } from "./constraints.server.ts";
import type { MetroDetail } from "../../platform/contract/devices.ts";
import { CreateMetroDialog, EditNidDialog, OamDialog } from "../routes/ethernet-devices/dialogs.tsx";
import { constraints as metroConstraints } from "../routes/ethernet-devices/schemas.server.ts";
import { constraints as routerConstraints } from "../routes/routers/schemas.server.ts";
import { SettingsForm } from "../routes/operations/route.tsx";
import { constraints as opsConstraints } from "../routes/operations/schemas.server.ts";
// forms-nodes: App Services, Endpoints (their shared dialogs) and Service Node Groups.
import { appServiceLimits } from "../../platform/contract/app-services.ts";
import { endpointLimits } from "../../platform/contract/endpoints.ts";
import type { AppService } from "../routes/app-services/model.ts";
import { EditDialog as EditAppServiceDialog } from "../routes/app-services/dialogs.tsx";
import { constraints as appServiceConstraints } from "../routes/app-services/schemas.server.ts";
import type { Endpoint } from "../routes/endpoints/model.ts";
import { AgentDetailsDialog, CreateEndpointDialog } from "../routes/endpoints/dialogs.tsx";
import { constraints as endpointConstraints } from "../routes/endpoints/schemas.server.ts";
import { ContactsDialog, DescriptionDialog, NameDialog, ResizeDialog, type Subject } from "../routes/services-shared/dialogs.tsx";
import { ImportDialog } from "../routes/service-node-groups/dialogs.tsx";
import { constraints as serviceNodeGroupConstraints } from "../routes/service-node-groups/schemas.server.ts";
import type { ServiceNodeGroupRow } from "../../platform/contract/nodes.ts";
import { SelectField } from "./forms.tsx";
import { addHostingRequired, appServiceDeployments, type AppServiceDeployment } from "../../platform/contract/app-services.ts";
import { endpointDeployments, type EndpointDeployment } from "../../platform/contract/endpoints.ts";
import { AddHostingDialog } from "../routes/app-services/dialogs.tsx";
import { CreateDialog as CreateAppServiceDialog } from "../routes/app-services/create-dialog.tsx";
import { requiredFields as appServiceRequired } from "../routes/app-services/model.ts";
import { endpointRequiredFields } from "../routes/endpoints/model.ts";
import { markRequired } from "../routes/services-shared/create-fields.tsx";
// nodes-forms: the nodes' forms (the form-factor tabs of both node kinds).
import { nodeLimits } from "../../platform/contract/nodes.ts";
import { FormFactorPanel } from "../routes/service-nodes/node-form-factor.tsx";
import { CreateNodeDialog } from "../routes/service-nodes/node-create.tsx";
import { endpointKind, serviceKind, type NodeView } from "../routes/service-nodes/node-kind.ts";
import { nodeFormConstraints } from "../routes/service-nodes/node-schemas.server.ts";
import type { EndpointNodeDetail } from "../../platform/contract/nodes.ts";
import { LanDialog, SecondaryIpsDialog } from "../routes/endpoint-nodes/dialogs.tsx";
import { AddressToggleDialog } from "../routes/endpoint-node-groups/address-toggle.tsx";
import { DHCP, VRRP } from "../routes/endpoint-node-groups/model.ts";
import { constraints as endpointNodeGroupConstraints } from "../routes/endpoint-node-groups/schemas.server.ts";
import { constraints as endpointNodeConstraints } from "../routes/endpoint-nodes/schemas.server.ts";
// forms-account: the sign-in pages, Settings' SAML form and My Profile's forms (full pages count as dialogs here).
import { SetPasswordPage } from "./auth-layout.tsx";
import Login from "../routes/auth/login.tsx";
import LoginMfa from "../routes/auth/login-mfa.tsx";
import Register from "../routes/auth/register.tsx";
import ForgotPassword from "../routes/auth/forgot-password.tsx";
import { authConstraints } from "../routes/auth/schemas.server.ts";
import { authLimits } from "../../platform/contract/auth.shapes.ts";
import { PasswordForm, SamlForm } from "../routes/account/account.tsx";
// account-forms: Billing's card form, Service Reports' schedule dialogs.
import { CARD_DIALOG, CardDialog } from "../routes/billing/card-form.tsx";
import { constraints as billingConstraints } from "../routes/billing/schemas.server.ts";
import { billingLimits } from "../../platform/contract/billing.ts";
import { CreateDialog as CreateReportScheduleDialog, UpdateDialog as UpdateReportScheduleDialog } from "../routes/reports/dialogs.tsx";
import { constraints as reportConstraints } from "../routes/reports/schemas.server.ts";
import { reportLimits } from "../../platform/contract/report-schedules.ts";
import type { ReportSchedule } from "../../platform/contract/report-schedules.shapes.ts";
import { ProfileFieldForm } from "../routes/account/profile.tsx";
import { accountConstraints, profileConstraints } from "../routes/account/schemas.server.ts";
// forms-toggles: the on/off switches (the devices' toggles, Advanced Visibility, MFA).
import { DEVICE_TOGGLES } from "../routes/devices-shared/toggles.ts";
import { VisibilityDialog } from "../routes/endpoints/dialogs.tsx";
import { MfaForm } from "../routes/account/account.tsx";
// forms-toggles: Billing's Make preferred and Remove, Service Reports' Delete.
import { PreferredForm, RemoveDialog as RemoveBillingDialog } from "../routes/billing/route.tsx";
import { RemoveDialog } from "./confirm-phrase-dialog.tsx";
import { REMOVE_PHRASE as REMOVE_SCHEDULE_PHRASE, SCHEDULE_GONE } from "../routes/reports/model.ts";
import type { Billing } from "../../platform/contract/billing.shapes.ts";

/*
 * Every dialog's inputs carry the constraints of their schema (issue 61 item 2): each dialog is
 * rendered on the server as its screen renders it (the loader's `constraints`, ?dialog=…), and
 * each named input, select and textarea of its form is read back: `required`, `maxlength`,
 * `minlength`, `min`, `max` and `pattern` must be what the schema's constraint map says (nothing
 * more, nothing less), every field of the map must be rendered, and the limits must be the
 * platform's (the contract's). Screens whose forms are their calls' request schemas are listed here.
 */

const iamUser: IamUser = {
  iam_user_id: "iam-1",
  username: "ops@example.com",
  role: "readonly",
  entity_name: "HQ",
  first_name: null,
  last_name: null,
  name: "Ops",
  email: null,
  phone: null,
  mfa_enabled: false,
  mfa_type: null,
  account_id: "acc-1",
  created_at: "2026-12-03T00:00:00Z",
} as unknown as IamUser; // why: the dialogs read a few fields; the rest of the row's shape is the list's.

const entity = { entity_id: "ent-1", entity_name: "HQ", description: "Head office", email: "a@example.com", parent_entity_name: null } as unknown as Entity; // why: as above.

const contact = {
  contact_id: "con-1",
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "",
  address: "",
  company_name: "",
  contact_type: "business",
  entity_name: "HQ",
} as unknown as Contact; // why: as above.

const contactMax = { first_name: contactLimits.name, last_name: contactLimits.name, email: contactLimits.email, phone: contactLimits.phone, address: contactLimits.address, company_name: contactLimits.name };

const endpoints: UserAgentEndpoint[] = [{ ep_id: "ep-1", ep_name: "Edge", deployment: "agent", app_service_id: "as-1" }];
const agent = { user_agent_id: "ua-1", name: "Laptop", email: "ua@example.com", description: "", ep_ids: ["ep-0"] } as unknown as UserAgent; // why: as above.

// forms-rest: the rows the dialogs below read.
const ticket = { ticket_id: "tkt-1", title: "VPN drops", state: "Open" } as unknown as Ticket; // why: as above.
// forms-devices: an Internet NID as the dialogs read it, and a dialog of the kinds' shared ones.
const cpe = {
  cpe_id: "cpe-1",
  cpe_name: "Lisbon edge",
  prod_code: "BN-CPE-1000",
  entity_name: "HQ",
  site_address: "Avenida 1",
  provider_service_id: "",
  client_circuit_id: "",
  ping_dns_ip: "",
  ping_gw_ip: "",
  description: "",
  tracking_number: "",
  scan_gap: 1,
  ip_monitor_target: "8.8.8.8",
  denial_of_service_enabled: false,
  ddos_thresholds: null,
} as unknown as CpeDetail; // why: as above.
const shared = (dialog: string) => <DeviceDialogs kind="cpe" dialog={dialog} data={{ device: cpe, entityNames: ["HQ"], lan: [], diagnostics: null }} actionData={null} lastResult={null} />;
// forms-devices: the Internet NID's site, network and service as Edit Site, Edit Network Info and Stop Service read them.
const cpeSite = {
  ...cpe,
  shipping_address: "",
  latitude: null,
  longitude: null,
  mode: "ROUTER",
  wan_addressing: "dhcp",
  wan_cidr: "",
  wan_gateway: "",
  dns_servers: ["1.1.1.1"],
  lan_cidr: "10.0.0.1/24",
  perf_test_scheduled: false,
  prod_code: "BN-CPE-IP",
  admin_state: "active",
  speed_test_ip: "",
} as unknown as CpeDetail; // why: as above.
// forms-devices: a Metro Ethernet NID of the fibre product (its SFP selects shown) as Edit NID info reads it.
const metro = {
  metro_id: "metro-1",
  metro_name: "Hamburg DC",
  prod_code: "BN-METRO-1000F",
  description: "",
  site_address: "",
  shipping_address: "",
  provider_service_id: "",
  client_circuit_id: "",
  contact_name: "",
  contact_email: "",
  contact_phone: "",
  wan_data_vlan_id: null,
  wan_q_in_q_vlan_id: null,
  lan_data_vlan_id: null,
  lan_q_in_q_vlan_id: null,
  wan_mgmt_vlan_id: 100,
  wan_cir_mbps: null,
  wan_eir_mbps: null,
  wan_sfp: null,
  lan_sfp: null,
} as unknown as MetroDetail; // why: as above.
const metroMax = { site_address: deviceLimits.address, shipping_address: deviceLimits.address, provider_service_id: deviceLimits.text, contact_name: deviceLimits.contact };
// forms-nodes: the subjects of the App Services, Endpoints and Service Node Groups dialogs.
const words = { screen: "App Services", missing: "Gone." };
const appServiceSubject: Subject = { idField: "app_service_id", id: "as-1", name: "Billing" };
const endpointSubject: Subject = { idField: "ep_id", id: "ep-1", name: "Edge" };
const contactOptions = [{ contact_id: "con-1", first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" }];
const onpremService = { app_service_id: "as-1", app_service_name: "Billing", deployment: "onprem", proto: "tcp", port: 443, fqdn: "billing.example.com" } as unknown as AppService; // why: as above.
const agentEndpoint = { ep_id: "ep-1", ep_name: "Edge", deployment: "agent", user_agent_dns_servers: ["10.0.0.2"], user_agent_cidrs: ["10.0.0.0/8"] } as unknown as Endpoint; // why: as above.
const serviceNodeGroup = { service_node_group_id: "sng-1", service_node_group_name: "Core", external_certificate: false } as unknown as ServiceNodeGroupRow; // why: as above.
const idMax = (field: string) => ({ [field]: limits.id });
/** The fields each deployment's create form shows beside its name (and description), as the dialogs render them. */
const createAppServiceFieldsOf: Record<AppServiceDeployment, string[]> = {
  aws: ["region", "cloud_endpoint_service_name", "proto", "port"],
  onprem: ["fqdn", "service_node_group_id", "proto", "port"],
  azure: ["region", "proto", "port", "cloud_endpoint_service_name", "open_ai_private_link", "private_endpoint_ip_address", "azure_user_email", "remote_vnet_resource_id"],
  network: ["service_node_group_id", "real_subnets", "address_translation_enabled", "virtual_subnet_pools", "bgp_enabled", "bgp_local_asn", "bgp_peer_asn", "bgp_peer_ip"],
};
const bgpFields = ["bgp_enabled", "bgp_local_asn", "bgp_peer_asn", "bgp_peer_ip"];
const createEndpointFieldsOf: Record<EndpointDeployment, string[]> = {
  agent: [],
  onprem: ["ep_node_group_id", "ep_node_id"],
  aws: ["region", "consumer_principle"],
  azure: ["region", "consumer_principle"],
  network: ["ep_node_group_id", "ep_node_id", "real_subnets", ...bgpFields],
};
// forms-account: a page rendered with its loader's and action's data (the Account select shows after a 300).
function page(Page: (props: never) => ReactNode, loaderData: object, actionData?: object): ReactNode {
  const Rendered = Page as (props: { loaderData: object; actionData?: object }) => ReactNode; // why: the pages read loaderData and actionData only, not the rest of Route.ComponentProps.
  return <Rendered loaderData={loaderData} actionData={actionData} />;
}
const reportSchedule: ReportSchedule = { schedule_id: "rps-1", name: "Ops", entity_id: null, entity_name: null, entity_removed: false, content: ["outages"], cadence: "monthly", time_zone: "UTC", hour: 6, recipients: [{ email: "ops@example.com", confirmed: true }], paused: false, next_run_at: null, last_sent_at: null, created_at: "", updated_at: "" };
const reportMax = { name: reportLimits.name, time_zone: reportLimits.timeZone, recipients: reportLimits.recipients * (limits.email + 2) };
const choices = { accounts: [{ value: "acc-1", label: "example.com" }] };
const billing: Billing = { provider: "Stripe", preferred: false, subscription_info: { customer_identifier: "cus_1", subscription_id: null, status: null }, created_at: "" };

// nodes-forms: a node as the form-factor tabs read it (none chosen yet).
const nodeView: NodeView = {
  id: "sn-1",
  name: "Edge",
  groupId: "sng-1",
  groupName: "Core",
  form_factor: null,
  shipping_addr: "",
  hosted_region: "",
  hosted_vpc_cidr: "",
  hosted_peer_ip: "",
  hosted_peer_prefix: null,
  ova_prepared: false,
  node_url: null,
  vpn_config_file: null,
  registered_at: null,
  op_state: "down",
  endpoint_count: 0,
};
const endpointNode = { ep_node_id: "epn-1", ep_node_name: "Branch edge", primary_ip: "10.0.0.5", secondary_ips: ["10.0.0.6"], lan_interface_enabled: false, lan_interface_ipaddress: "" } as unknown as EndpointNodeDetail; // why: as above.
const formFactorTab = (info: typeof serviceKind, choice: "hw" | "hosted_aws") => (
  <FormFactorPanel info={info} node={nodeView} choice={choice} creating={false} regions={[{ region: "us-east-1", name: "US East (N. Virginia)" }]} cloudInit={null} lastResult={null} />
);

interface DialogCase {
  screen: string;
  /** The constraint map's key (the form's intent, useIntentForm's name). */
  dialog: string;
  /** The URL's ?dialog= when it differs from the key. */
  open?: string;
  constraint: FormConstraint;
  element: ReactNode;
  /** The platform's limit of each field (the contract's), where it has one. */
  maxLength: Record<string, number>;
  /** The platform's upper bound of each number field (the contract's), where the case names one. */
  max?: Record<string, number>;
  /** The platform's lower bound of each number field (the contract's), where the case names one. */
  min?: Record<string, number>;
  /** The fields of the map this rendering shows (one form for several locations renders one location's): the others must be absent. */
  only?: readonly string[];
  /** On/off switches: never `required` (a switch turned off posts nothing). */
  switches?: readonly string[];
}

const cases: DialogCase[] = [
  { screen: "iam", dialog: "create", constraint: iamConstraints.create, element: <CreateDialog entityNames={["HQ"]} lastResult={null} />, maxLength: { username: iamLimits.username, entity_name: iamLimits.entityName, name: iamLimits.name } },
  { screen: "iam", dialog: "assign", constraint: iamConstraints.assign, element: <AssignDialog user={iamUser} entityNames={["HQ"]} lastResult={null} />, maxLength: { new_entity_name: iamLimits.entityName, iam_user_id: limits.id } },
  { screen: "iam", dialog: "role", constraint: iamConstraints.role, element: <RoleDialog user={iamUser} lastResult={null} />, maxLength: { iam_user_id: limits.id } },
  { screen: "contacts", dialog: "create", constraint: contactConstraints.create, element: <AddContactDialog contactTypes={[...contactTypes]} entityNames={["HQ"]} lastResult={null} />, maxLength: { ...contactMax, entity_name: contactLimits.name } },
  { screen: "contacts", dialog: "update", constraint: contactConstraints.update, element: <UpdateContactDialog contact={contact} contactTypes={[...contactTypes]} lastResult={null} />, maxLength: { ...contactMax, contact_id: limits.id } },
  { screen: "entities", dialog: "add", constraint: entityConstraints.add, element: <AddEntityDialog parentChoices={["HQ"]} lastResult={undefined} />, maxLength: { entity_name: entityLimits.name, description: entityLimits.description, parent_entity_name: entityLimits.name } },
  { screen: "entities", dialog: "edit", constraint: entityConstraints.edit, element: <EditEntityDialog entity={entity} lastResult={undefined} />, maxLength: { entity_id: limits.id, description: entityLimits.description, email: entityLimits.emailList } },
  { screen: "entities", dialog: "assign", open: "assign-parent", constraint: entityConstraints.assign, element: <AssignParentDialog entity={entity} parentChoices={["HQ"]} lastResult={undefined} />, maxLength: { entity_id: limits.id, parent_entity_name: entityLimits.name } },
  { screen: "user-agents", dialog: "create", constraint: userAgentConstraints.create, element: <CreateUserAgentDialog endpoints={endpoints} lastResult={null} />, maxLength: { name: userAgentLimits.name, email: userAgentLimits.email, description: userAgentLimits.description, ep_id: limits.id } },
  { screen: "user-agents", dialog: "link", constraint: userAgentConstraints.link, element: <LinkDialog mode="link" agent={agent} endpoints={endpoints} lastResult={null} />, maxLength: { user_agent_id: limits.id, ep_id: limits.id } },
  { screen: "user-agents", dialog: "unlink", constraint: userAgentConstraints.unlink, element: <LinkDialog mode="unlink" agent={agent} endpoints={endpoints} lastResult={null} />, maxLength: { user_agent_id: limits.id, ep_id: limits.id } },
  // forms-rest: Contacts' Assign Entity, Support Center, Service Reports, Billing, Settings.
  { screen: "contacts", dialog: "assign", constraint: contactConstraints.assign, element: <AssignContactDialog contact={contact} contactTypes={[...contactTypes]} entityNames={["HQ"]} lastResult={null} />, maxLength: { contact_id: limits.id, new_entity_name: limits.name } },
  { screen: "support", dialog: "create", constraint: supportConstraints.create, element: <CreateTicketDialog priorities={["Low"]} categories={["Other"]} devices={{ cpe: [{ name: "Edge", id: "cpe-1" }], metro: [] }} lastResult={null} />, maxLength: { title: ticketLimits.title, description: ticketLimits.description, device_id: limits.id } },
  { screen: "support", dialog: "reply", constraint: supportConstraints.reply, element: <ReplyDialog ticket={ticket} lastResult={null} />, maxLength: { ticket_id: limits.id, correspondence: ticketLimits.correspondence } },
  // forms-devices:
  { screen: "routers", dialog: "assign", constraint: routerConstraints.assign, element: shared("assign"), maxLength: { new_entity_name: deviceLimits.name } },
  { screen: "routers", dialog: "reset-lan", constraint: routerConstraints["reset-lan"], element: shared("reset-lan"), maxLength: { interface: 20 } },
  { screen: "routers", dialog: "shipping", constraint: routerConstraints.shipping, element: shared("shipping"), maxLength: { tracking_number: deviceLimits.tracking } },
  // devices-forms: Ping (run_ping's query), Delete (remove_cpe's request and the typed id).
  { screen: "routers", dialog: "ping", constraint: routerConstraints.ping, element: shared("ping"), maxLength: { ip_address: 45 }, only: ["device_id", "ip_address"] /* the tool is the button pressed */ },
  { screen: "routers", dialog: "remove", constraint: formConstraints({ remove: removeSchema("cpe-1") }).remove, element: shared("remove"), maxLength: { device_id: limits.id } },
  // devices-forms: Announcement (the form's date and hour make the call's start_time; the duration's range the request's).
  {
    screen: "routers",
    dialog: "announcement",
    constraint: routerConstraints.announcement,
    element: <DeviceDialogs kind="cpe" dialog="announcement" data={{ device: { ...cpe, announcements: [] }, entityNames: ["HQ"], lan: [], diagnostics: null }} actionData={null} lastResult={null} />,
    maxLength: { device_id: limits.id },
    max: { duration: announcementLimits.maxHours },
  },
  // devices-forms: nested names (`udp_thresholds.block_threshold`), the thresholds' range the contract's.
  { screen: "routers", dialog: "ddos", constraint: routerConstraints.ddos, element: shared("ddos"), maxLength: {}, switches: ["enabled"], max: Object.fromEntries(ddosFloods.flatMap((f) => ddosThresholds.map((t) => [`${f}.${t}`, ddosMax]))) },
  {
    screen: "routers",
    dialog: "create",
    constraint: routerConstraints.create,
    element: <CreateDeviceDialog products={[]} entityNames={["HQ"]} lastResult={null} />,
    maxLength: { cpe_name: deviceLimits.name, site_address: deviceLimits.name, shipping_address: deviceLimits.address, provider_service_id: deviceLimits.text, client_circuit_id: deviceLimits.text, entity_name: deviceLimits.name, contact_name: deviceLimits.contact, description: deviceLimits.description },
  },
  { screen: "routers", dialog: "info", constraint: routerConstraints.info, element: <EditInfoDialog device={cpe} lastResult={null} />, maxLength: { cpe_id: limits.id, cpe_name: deviceLimits.name, provider_service_id: deviceLimits.text, ping_dns_ip: 45, description: deviceLimits.description } },
  { screen: "routers", dialog: "scan", constraint: routerConstraints.scan, element: <OneValueDialog name="scan" cpe={cpe} lastResult={null} />, maxLength: { cpe_id: limits.id } },
  { screen: "routers", dialog: "target", constraint: routerConstraints.target, element: <OneValueDialog name="target" cpe={cpe} lastResult={null} />, maxLength: { cpe_id: limits.id, ip_monitor_target: 45 } },
  { screen: "routers", dialog: "site", constraint: routerConstraints.site, element: <EditSiteDialog device={cpeSite} lastResult={null} />, maxLength: { cpe_id: limits.id, site_address: deviceLimits.name, shipping_address: deviceLimits.address } },
  { screen: "routers", dialog: "network", constraint: routerConstraints.network, element: <NetworkInfoDialog device={cpeSite} lastResult={null} />, maxLength: { cpe_id: limits.id, wan_cidr: 49, wan_gateway: 45, lan_cidr: 49 } },
  { screen: "routers", dialog: "perf", constraint: routerConstraints.perf, element: <PerfTestDialog cpe={cpeSite} regions={[{ peer_region: "FRA", city: "Frankfurt", country: "DE", peer_ip: "192.0.2.1" }]} confirm={null} lastResult={null} />, maxLength: { cpe_id: limits.id, peer_region: 20 } },
  { screen: "routers", dialog: "speed-test", constraint: routerConstraints["speed-test"], element: <SpeedTestDialog cpe={cpeSite} run={null} lastResult={null} />, maxLength: { cpe_id: limits.id, host: 253 } },
  { screen: "routers", dialog: "service", open: "stop-service", constraint: routerConstraints.service, element: <StopServiceDialog device={cpeSite} />, maxLength: { cpe_id: limits.id } },
  { screen: "ethernet-devices", dialog: "create", constraint: metroConstraints.create, element: <CreateMetroDialog products={[]} lastResult={null} />, maxLength: { metro_name: deviceLimits.name, ...metroMax } },
  { screen: "ethernet-devices", dialog: "edit-nid", constraint: metroConstraints["edit-nid"], element: <EditNidDialog device={metro} products={[]} lastResult={null} />, maxLength: { metro_id: limits.id, metro_name: deviceLimits.name, description: deviceLimits.description, ...metroMax } },
  // devices-forms: Edit OAM info (continuity check off: every field shown unrequired before hydration, as the server renders it); the CFM numbers' ranges the contract's (IEEE 802.1ag).
  {
    screen: "ethernet-devices",
    dialog: "edit-oam",
    constraint: metroConstraints["edit-oam"],
    element: <OamDialog device={{ ...metro, oam_loopback_enabled: false, oam_ccp_enabled: false }} ccmIntervals={["1s"]} lastResult={null} />,
    maxLength: { metro_id: limits.id, ccm_interval: 10, md_name: 200, md_association: 200 },
    min: { md_level: oamLimits.mdLevel.min, mep_id: oamLimits.mepId.min, vlan_id: oamLimits.vlanId.min },
    max: { md_level: oamLimits.mdLevel.max, mep_id: oamLimits.mepId.max, vlan_id: oamLimits.vlanId.max },
  },
  // devices-forms: Start Activation Test, one form for both kinds (the metro's: the layer and both peers' fields, shown without JavaScript).
  {
    screen: "ethernet-devices",
    dialog: "activation-test",
    constraint: metroConstraints["activation-test"],
    element: <StartActivationDialog kind="metro" device={{ id: "metro-1", name: "Hamburg DC" }} lastResult={null} />,
    maxLength: { device_id: limits.id, peer_ip: 45, peer_mac: 17 },
    max: { ftd_max_ms: 10_000, fdv_max_ms: 10_000, flr_max_pct: 100, availability_min_pct: 100 },
  },
  { screen: "operations", dialog: "settings", constraint: opsConstraints.settings, element: <SettingsForm ops={null} lastResult={undefined} />, maxLength: { webhook_url: opsLimits.webhookUrl, email: opsLimits.email } },
  // forms-nodes:
  { screen: "app-services", dialog: "rename", constraint: appServiceConstraints.rename, element: <NameDialog subject={appServiceSubject} words={words} field="app_service_name" label="Name" lastResult={null} constraint={appServiceConstraints.rename} />, maxLength: { ...idMax("app_service_id"), app_service_name: appServiceLimits.name } },
  { screen: "app-services", dialog: "describe", constraint: appServiceConstraints.describe, element: <DescriptionDialog subject={appServiceSubject} words={words} description="" lastResult={null} constraint={appServiceConstraints.describe} />, maxLength: { ...idMax("app_service_id"), description: appServiceLimits.description } },
  { screen: "app-services", dialog: "contacts", constraint: appServiceConstraints.contacts, element: <ContactsDialog subject={appServiceSubject} words={words} contacts={contactOptions} primary={null} secondary={null} lastResult={null} constraint={appServiceConstraints.contacts} />, maxLength: { ...idMax("app_service_id"), primary_contact_id: limits.id, secondary_contact_id: limits.id } },
  {
    screen: "app-services",
    dialog: "resize",
    constraint: appServiceConstraints.resize,
    element: (
      <ResizeDialog subject={appServiceSubject} words={words} title="Resize App Service" lastResult={null} constraint={appServiceConstraints.resize}>
        {(fields) => <SelectField field={fields.hosting_id!} label="Hosting location" options={[{ value: "h-1", label: "aws us-east-1 (small)" }]} placeholder="Select a hosting location" />}
      </ResizeDialog>
    ),
    maxLength: { ...idMax("app_service_id"), hosting_id: limits.id },
  },
  { screen: "app-services", dialog: "edit", constraint: appServiceConstraints.edit, element: <EditAppServiceDialog service={onpremService} lastResult={null} constraint={appServiceConstraints.edit} />, maxLength: { ...idMax("app_service_id"), fqdn: appServiceLimits.fqdn } },
  { screen: "endpoints", dialog: "rename", constraint: endpointConstraints.rename, element: <NameDialog subject={endpointSubject} words={words} field="ep_name" label="Endpoint Name" lastResult={null} constraint={endpointConstraints.rename} />, maxLength: { ...idMax("ep_id"), ep_name: endpointLimits.name } },
  { screen: "endpoints", dialog: "describe", constraint: endpointConstraints.describe, element: <DescriptionDialog subject={endpointSubject} words={words} description="" lastResult={null} constraint={endpointConstraints.describe} />, maxLength: { ...idMax("ep_id"), description: limits.description } },
  { screen: "endpoints", dialog: "contacts", constraint: endpointConstraints.contacts, element: <ContactsDialog subject={endpointSubject} words={words} contacts={contactOptions} primary={null} secondary={null} lastResult={null} constraint={endpointConstraints.contacts} />, maxLength: { ...idMax("ep_id"), primary_contact_id: limits.id, secondary_contact_id: limits.id } },
  { screen: "endpoints", dialog: "resize", constraint: endpointConstraints.resize, element: <ResizeDialog subject={endpointSubject} words={words} title="Resize Endpoints" lastResult={null} constraint={endpointConstraints.resize} />, maxLength: idMax("ep_id") },
  { screen: "endpoints", dialog: "agent", constraint: endpointConstraints.agent, element: <AgentDetailsDialog target={agentEndpoint} lastResult={null} constraint={endpointConstraints.agent} />, maxLength: { ...idMax("ep_id"), user_agent_dns_servers: endpointLimits.description, user_agent_cidrs: endpointLimits.description } },
  {
    screen: "endpoints",
    dialog: "group",
    open: "create",
    constraint: endpointConstraints.group,
    element: <CreateEndpointDialog deployment="agent" appServices={[]} regions={[]} nodes={[]} nodeGroups={[]} draft={{}} panel lastResult={null} constraints={{ create: endpointConstraints.create, group: endpointConstraints.group }} />,
    maxLength: { ep_node_group_name: endpointLimits.name },
  },
  { screen: "service-node-groups", dialog: "import", constraint: serviceNodeGroupConstraints.import, element: <ImportDialog group={serviceNodeGroup} lastResult={null} />, maxLength: idMax("service_node_group_id") },
  // forms-nodes: the creates (one form for every deployment, each rendered with its own fields
  // and required marks, the call's rules') and Add Hosting (one location's fields each).
  ...appServiceDeployments.map((d): DialogCase => ({
    screen: "app-services",
    dialog: "create",
    constraint: markRequired(appServiceConstraints.create, appServiceRequired[d]),
    element: <CreateAppServiceDialog deployment={d} draft={{}} regions={[]} groups={[{ service_node_group_id: "sng-1", service_node_group_name: "Core", external_certificate: false, created_at: "" }]} lastResult={null} constraint={appServiceConstraints.create} />,
    maxLength: { app_service_name: appServiceLimits.name, description: appServiceLimits.description, ...(d === "onprem" ? { fqdn: appServiceLimits.fqdn } : {}), ...(d === "network" ? { real_subnets: appServiceLimits.description, virtual_subnet_pools: appServiceLimits.description } : {}) },
    only: ["location", "app_service_name", "description", ...createAppServiceFieldsOf[d]],
  })),
  ...endpointDeployments.map((d): DialogCase => ({
    screen: "endpoints",
    dialog: "create",
    constraint: markRequired(endpointConstraints.create, endpointRequiredFields[d]),
    element: <CreateEndpointDialog deployment={d} appServices={[]} regions={[]} nodes={[]} nodeGroups={[]} draft={{}} panel={false} lastResult={null} constraints={{ create: endpointConstraints.create, group: endpointConstraints.group }} />,
    maxLength: { ep_name: endpointLimits.name, app_service_id: limits.id, ...(d === "aws" || d === "azure" ? { region: endpointLimits.text, consumer_principle: endpointLimits.text } : {}) },
    only: ["deployment", "ep_name", "app_service_id", ...createEndpointFieldsOf[d]],
  })),
  ...(["aws", "azure", "onprem"] as const).map((location): DialogCase => ({
    screen: "app-services",
    dialog: "hosting",
    open: "add-hosting",
    constraint: markRequired(appServiceConstraints.hosting, addHostingRequired(location).map(([f]) => f)),
    element: <AddHostingDialog service={onpremService} location={location} regions={[]} groups={[]} lastResult={null} constraint={appServiceConstraints.hosting} />,
    maxLength: { ...idMax("app_service_id"), ...(location === "onprem" ? { fqdn: appServiceLimits.fqdn } : {}) },
    only: ["app_service_id", "location", ...(location === "onprem" ? ["fqdn", "service_node_group_id"] : ["region", "cloud_endpoint_service_name"])],
  })),
  // nodes-forms: the form-factor tabs, their calls' requests (both node kinds, one form each).
  ...[serviceKind, endpointKind].flatMap((info): DialogCase[] => [
    {
      screen: info.path.slice(1),
      dialog: "create",
      // An existing group is chosen first (there is one): its select is required, the new group's name not.
      constraint: markRequired(nodeFormConstraints(info).create, [info.groupIdField]),
      element: <CreateNodeDialog info={info} step="node" node={null} groups={[{ id: "g-1", name: "Core" }]} screen={info.title} choice="hosted_aws" regions={[]} cloudInit={null} lastResult={null} />,
      maxLength: { [info.nameField]: nodeLimits.name, [info.groupNameField]: nodeLimits.name, [info.groupIdField]: limits.id },
    },
    { screen: info.path.slice(1), dialog: "hw", open: "create", constraint: nodeFormConstraints(info).hw, element: formFactorTab(info, "hw"), maxLength: { node_id: limits.id, shipping_addr: nodeLimits.shippingAddr } },
    { screen: info.path.slice(1), dialog: "hosted", open: "create", constraint: nodeFormConstraints(info).hosted, element: formFactorTab(info, "hosted_aws"), maxLength: { node_id: limits.id, hosted_region: 40, hosted_vpc_cidr: 18, hosted_peer_ip: 15 } },
  ]),
  { screen: "endpoint-nodes", dialog: "secondary-ips", constraint: endpointNodeConstraints["secondary-ips"], element: <SecondaryIpsDialog node={endpointNode} lastResult={null} />, maxLength: { ep_node_id: limits.id, secondary_ips: nodeLimits.secondaryIpsText } },
  { screen: "endpoint-nodes", dialog: "lan", constraint: endpointNodeConstraints.lan, element: <LanDialog node={endpointNode} lastResult={null} />, maxLength: { node_id: limits.id, primary_ipv4_address: 18 } },
  ...[DHCP, VRRP].map(
    (texts): DialogCase => ({
      screen: "endpoint-node-groups",
      dialog: texts.name,
      constraint: endpointNodeGroupConstraints[texts.name as "dhcp" | "vrrp"],
      element: <AddressToggleDialog texts={texts} current={{ enabled: false, address: "" }} gone="Gone." fields={{ node_group_id: "epg-1" }} lastResult={null} />,
      maxLength: { node_group_id: limits.id, [texts.address.name]: 15 },
    }),
  ),
  // forms-account:
  { screen: "login", dialog: "login", constraint: authConstraints.login, element: page(Login, { subscriber: "", redirectTo: "" }, choices), maxLength: { username: limits.email, password: authLimits.password, account_id: limits.id, subscriber: 200 } },
  { screen: "login-mfa", dialog: "login-mfa", constraint: authConstraints["login-mfa"], element: page(LoginMfa, { username: "ops@example.com" }), maxLength: { otp: authLimits.otp } },
  { screen: "register", dialog: "register", constraint: authConstraints.register, element: page(Register, { subscriber: "" }), maxLength: { username: limits.email, password: authLimits.password, subscriber: 200 } },
  { screen: "forgot-password", dialog: "forgot-password", constraint: authConstraints["forgot-password"], element: page(ForgotPassword, { sent: false }, choices), maxLength: { username: limits.email, account_id: limits.id } },
  { screen: "reset-password-template", dialog: "set-password", constraint: authConstraints["set-password"], element: <SetPasswordPage heading="Reset password" token="tok" invalidText="Invalid." button="Reset password" lastResult={undefined} />, maxLength: { password: authLimits.password } },
  {
    screen: "billing",
    dialog: "card",
    open: CARD_DIALOG,
    constraint: billingConstraints.card,
    element: <CardDialog lastResult={null} stripe={{ publishableKey: "pk_test_1", jsUrl: "" }} />,
    maxLength: { email: limits.email, phone: limits.phone, street_addr_1: billingLimits.street, street_addr_2: billingLimits.street, city: billingLimits.city, state: billingLimits.state, postal_code: billingLimits.postalCode },
    // Stripe.js's payment method is set on submit, not a control.
    only: ["first_name", "last_name", "email", "phone", "street_addr_1", "street_addr_2", "city", "state", "postal_code", "country", "terms"],
  },
  { screen: "reports", dialog: "create", constraint: reportConstraints.create, element: <CreateReportScheduleDialog entityNames={["Berlin"]} lastResult={null} />, maxLength: reportMax },
  { screen: "reports", dialog: "update", constraint: reportConstraints.update, element: <UpdateReportScheduleDialog schedule={reportSchedule} entityNames={["Berlin"]} lastResult={null} />, maxLength: { ...reportMax, ...idMax("schedule_id") } },
  { screen: "account", dialog: "password", constraint: accountConstraints.password, element: <PasswordForm lastResult={undefined} />, maxLength: { current_password: authLimits.password, password: authLimits.password } },
  { screen: "account", dialog: "saml", constraint: accountConstraints.saml, element: <SamlForm metalink="" lastResult={undefined} />, maxLength: { metalink: 2048 } },
  { screen: "profile", dialog: "name", constraint: profileConstraints.name, element: <ProfileFieldForm name="name" value="" />, maxLength: { name: limits.name } },
  { screen: "profile", dialog: "email", constraint: profileConstraints.email, element: <ProfileFieldForm name="email" value="" />, maxLength: { email: limits.email } },
  { screen: "profile", dialog: "phone", constraint: profileConstraints.phone, element: <ProfileFieldForm name="phone" value="" />, maxLength: { phone: limits.phone } },
  { screen: "profile", dialog: "address", constraint: profileConstraints.address, element: <ProfileFieldForm name="address" value="" />, maxLength: { address: limits.address } },
  // forms-toggles: every toggle dialog of both device kinds (one form, `toggle`), Advanced Visibility, MFA.
  ...DEVICE_TOGGLES.flatMap((t) =>
    (["cpe", "metro"] as const)
      .filter((kind) => t.calls[kind])
      .map(
        (kind): DialogCase => ({
          screen: kind === "cpe" ? "routers" : "ethernet-devices",
          dialog: "toggle",
          open: t.dialog,
          constraint: (kind === "cpe" ? routerConstraints : metroConstraints).toggle,
          element: <DeviceDialogs kind={kind} dialog={t.dialog} data={{ device: kind === "cpe" ? cpe : metro, entityNames: ["HQ"], lan: [], diagnostics: null }} actionData={null} lastResult={null} />,
          maxLength: { device_id: limits.id },
          switches: ["enabled"],
        }),
      ),
  ),
  { screen: "endpoints", dialog: "visibility", constraint: endpointConstraints.visibility, element: <VisibilityDialog target={agentEndpoint} lastResult={null} />, maxLength: idMax("ep_id"), switches: ["enabled"] },
  { screen: "account", dialog: "mfa", constraint: accountConstraints.mfa, element: <MfaForm current={false} lastResult={undefined} />, maxLength: {}, switches: ["mfa_enabled"] },
  // forms-toggles: forms of an id alone (their refusals are toasts), the calls' requests.
  { screen: "billing", dialog: "preferred", constraint: billingConstraints.preferred, element: <PreferredForm provider="Stripe" />, maxLength: {} },
  { screen: "billing", dialog: "remove", constraint: billingConstraints.remove, element: <RemoveBillingDialog billing={billing} />, maxLength: {} },
  {
    screen: "reports",
    dialog: "remove",
    constraint: reportConstraints.remove,
    element: (
      <RemoveDialog title="Delete Report Schedule" phrase={REMOVE_SCHEDULE_PHRASE} fields={{ schedule_id: "rps-1" }} lastResult={null} gone={SCHEDULE_GONE}>
        Delete the report schedule <strong>Ops</strong>?
      </RemoveDialog>
    ),
    maxLength: idMax("schedule_id"),
  },
];

function render(c: DialogCase): string {
  const Stub = createRoutesStub([{ id: "screen", path: `/${c.screen}`, Component: () => <AuthenticityTokenProvider token="tok.sig">{c.element}</AuthenticityTokenProvider>, loader: () => null }]);
  return renderToStaticMarkup(
    <Stub initialEntries={[`/${c.screen}?dialog=${c.open ?? c.dialog}&id=x`]} hydrationData={{ loaderData: { screen: { constraints: { [c.dialog]: c.constraint } } } }} />,
  );
}

/** The named form controls of the markup and their constraint attributes (as Conform's Constraint). */
function renderedControls(html: string): Map<string, { element: string; hidden: boolean; attributes: Constraint }> {
  const controls = new Map<string, { element: string; hidden: boolean; attributes: Constraint }>();
  for (const [tag, element] of html.matchAll(/<(input|select|textarea)\b[^>]*>/g)) {
    const attr = (name: string) => {
      const m = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s/>])`, "i").exec(tag);
      return m ? (m[1] ?? "") : undefined;
    };
    const name = attr("name");
    // Form plumbing (intent, CSRF) and submit buttons carry no field's constraint.
    if (name === undefined || name === "intent" || name === "csrf" || attr("type") === "submit") continue;
    const c: Constraint = {};
    if (attr("required") !== undefined) c.required = true;
    const num = (n: string) => (attr(n) === undefined ? undefined : Number(attr(n)));
    if (num("maxlength") !== undefined) c.maxLength = num("maxlength");
    if (num("minlength") !== undefined) c.minLength = num("minlength");
    if (attr("min") !== undefined) c.min = attr("min");
    if (attr("max") !== undefined) c.max = attr("max");
    if (attr("pattern") !== undefined) c.pattern = attr("pattern")!.replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"');
    // forms-devices: a radio group (Run Speed Test's type) is read as one control, like a select.
    controls.set(name, { element: attr("type") === "radio" ? "radio" : element!, hidden: attr("type") === "hidden", attributes: c });
  }
  return controls;
}

/**
 * What the schema's constraint says a control must carry, as HTML has them: a select and a radio
 * group take `required` only, a textarea no pattern nor range, a hidden input (an id the page sets) none.
 */
function expected(c: Constraint, control: { element: string; hidden: boolean }): Constraint {
  const out: Constraint = {};
  // A list's checkboxes (forms-rest: Contacts' Assign Entity): no one box is required.
  if (control.hidden || c.multiple) return out;
  if (c.required) out.required = true;
  if (control.element === "select" || control.element === "radio") return out;
  if (c.maxLength !== undefined) out.maxLength = c.maxLength;
  if (c.minLength !== undefined) out.minLength = c.minLength;
  if (control.element === "textarea") return out;
  if (c.min !== undefined) out.min = String(c.min);
  if (c.max !== undefined) out.max = String(c.max);
  if (c.pattern !== undefined) out.pattern = c.pattern;
  return out;
}

describe("every dialog's inputs carry their schema's constraints", () => {
  it.each(cases.map((c, i) => [`${c.screen} ?dialog=${c.dialog}${c.only ? ` (#${i}: ${c.only.slice(0, 4).join(", ")}…)` : ""}`, c] as const))("%s", (_, c) => {
    const html = render(c);
    const controls = renderedControls(html);
    expect(controls.size).toBeGreaterThan(0);
    for (const [field, constraint] of Object.entries(c.constraint)) {
      // A list's items (`contact_types[]`) are its controls, checked under the list's name.
      if (field.endsWith("[]")) continue;
      // An object's fields (DDoS Mitigation's `icmp_thresholds.max_threshold`) are its controls,
      // each checked under its nested name; the object itself is no control.
      if (Object.keys(c.constraint).some((key) => key.startsWith(`${field}.`))) continue;
      const control = controls.get(field);
      if (c.only && !c.only.includes(field)) {
        expect(control, `${field} is not rendered here`).toBeUndefined();
        continue;
      }
      expect(control, `${field} is rendered`).toBeDefined();
      if (control) expect(control.attributes, `${field}'s attributes`).toEqual(expected(constraint, control));
    }
    for (const field of controls.keys()) expect(Object.keys(c.constraint), `${field} has a constraint`).toContain(field);
    // The limits are the platform's: the schema's maxLength is the contract's for the field.
    for (const [field, max] of Object.entries(c.maxLength)) expect(c.constraint[field]?.maxLength, `${field}'s maxLength`).toBe(max);
    for (const [field, max] of Object.entries(c.max ?? {})) expect(c.constraint[field]?.max, `${field}'s max`).toBe(max);
    for (const [field, min] of Object.entries(c.min ?? {})) expect(c.constraint[field]?.min, `${field}'s min`).toBe(min);
    // forms-toggles: a switch is a checkbox that is not required, in the schema and on the page.
    for (const field of c.switches ?? []) {
      expect(c.constraint[field]?.required, `${field} is not required`).toBe(false);
      expect(html, `${field} is a checkbox`).toMatch(new RegExp(`<input[^>]*type="checkbox"[^>]*name="${field}"|<input[^>]*name="${field}"[^>]*type="checkbox"`));
      expect(controls.get(field)?.attributes.required, `${field} carries no required`).toBeUndefined();
    }
  });

  // The required mark does not change a control's name (the pages' and tests' 'Password'): a
  // required labelled control is named by its label's words (aria-labelledby), the asterisk beside
  // them, hidden from assistive technology; `required` says it.
  it.each(cases.map((c, i) => [`${c.screen} ?dialog=${c.dialog} (#${i})`, c] as const))("%s: the asterisk is not in the name", (_, c) => {
    const html = render(c);
    for (const [tag] of html.matchAll(/<(?:input|select|textarea)\b[^>]*\srequired[^>]*>/g)) {
      const id = /\sid="([^"]*)"/.exec(tag)?.[1];
      if (!id || /\stype="radio"/.test(tag)) continue;
      const wrapped = new RegExp(`<label[^>]*\\sfor="${id}"[^>]*>(.*?)</label>`).exec(html)?.[1];
      if (wrapped === undefined) continue;
      // forms-toggles: a checkbox sits inside its label, its words after it (Billing's terms); one
      // without the asterisk (Register's terms) is named by its whole label.
      const checkbox = /\stype="checkbox"/.test(tag);
      const label = checkbox ? wrapped.replace(/^<input[^>]*>(?:<span>(.*)<\/span>)?/, "$1") : wrapped;
      if (checkbox && !label.includes("*")) continue;
      const nameId = /\saria-labelledby="([^"]*)"/.exec(tag)?.[1];
      expect(nameId, `${id} is named by its label's words`).toBeDefined();
      const named = new RegExp(`^<span id="${nameId}">(.*)</span><span aria-hidden="true"> \\*</span>$`).exec(label);
      expect(named, `${id}'s label: its words, then the hidden asterisk`).not.toBeNull();
      expect(named?.[1], `${id}'s name`).not.toContain("*");
    }
  });
});
