import { sql } from "drizzle-orm";
// Type-only: the stored values' types, so typed selects answer the contract's shapes.
import type { AppServiceDeployment, Size } from "../contract/app-services.ts";
import type { ApprovalStatus, EndpointDeployment } from "../contract/endpoints.ts";
import type { FormFactor } from "../contract/nodes.ts";
import type { PcapAnalysisState } from "../contract/pcap.ts";
import {
  pgSequence,
  customType,
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
/** The owning account; its rows go with it. (`accounts` is read when the table is built, below it.) */
const accountRef = () =>
  text("account_id")
    .notNull()
    .references((): AnyPgColumn => accounts.accountId, { onDelete: "cascade" });
/** Admin and operational state of a published object, with when each last changed (spec 1 §3). */
const stateColumns = () => ({
  adminState: text("admin_state").notNull().default("up"),
  adminStateChangeAt: timestamp("admin_state_change_at", { withTimezone: true }).notNull().defaultNow(),
  opState: text("op_state").notNull().default("up"),
  opStateChangeAt: timestamp("op_state_change_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An account owner: the customer. `username` is an e-mail address; several accounts may share one. */
export const accounts = pgTable(
  "accounts",
  {
    accountId: text("account_id").primaryKey(),
    username: text("username").notNull(),
    // The short name shown in the account dropdown when several accounts share an e-mail.
    accountDomain: text("account_domain").notNull(),
    passwordHash: text("password_hash").notNull(),
    name: text("name").notNull().default(""),
    email: text("email").notNull().default(""),
    // How many contacts the account has, kept by statement triggers on contacts (migration
    // 0004_contact_count.sql): an unsearched list's total without counting 100,000 rows.
    contactCount: integer("contact_count").notNull().default(0),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull().default(""),
    logo: text("logo"),
    mfaEnabled: boolean("mfa_enabled").notNull().default(false),
    idpMetalink: text("idp_metalink").notNull().default(""),
    subscriber: text("subscriber"),
    createdAt: createdAt(),
  },
  (t) => [index("accounts_username_idx").on(t.username), uniqueIndex("accounts_domain_uq").on(t.accountDomain)],
);

export const entities = pgTable(
  "entities",
  {
    entityId: text("entity_id").primaryKey(),
    accountId: accountRef(),
    entityName: text("entity_name").notNull(),
    parentEntityId: text("parent_entity_id"),
    description: text("description").notNull().default(""),
    // Alert e-mail addresses, comma separated, as the spec shows them.
    email: text("email").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("entities_account_name_uq").on(t.accountId, t.entityName)],
);

/** An IAM user: a sub-user of an account, tied to an entity. */
export const iamUsers = pgTable(
  "iam_users",
  {
    iamUserId: text("iam_user_id").primaryKey(),
    accountId: accountRef(),
    username: text("username").notNull(),
    passwordHash: text("password_hash"),
    role: text("role").notNull().default("readonly"),
    entityId: text("entity_id").references(() => entities.entityId, { onDelete: "set null" }),
    name: text("name").notNull().default(""),
    email: text("email").notNull().default(""),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull().default(""),
    mfaEnabled: boolean("mfa_enabled").notNull().default(false),
    mfaType: text("mfa_type"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("iam_users_account_username_uq").on(t.accountId, t.username), index("iam_users_username_idx").on(t.username)],
);

/** Opaque bearer tokens; only the SHA-256 of the token is stored. */
export const accessTokens = pgTable("access_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  accountId: accountRef(),
  iamUserId: text("iam_user_id").references(() => iamUsers.iamUserId, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Single-use secrets sent by e-mail: MFA login codes, password-reset tokens, first IAM-user
 * password tokens. Hashed, expiring, attempt-limited.
 */
export const oneTimeSecrets = pgTable(
  "one_time_secrets",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose").notNull(), // "mfa" | "password_reset" | "iam_setup"
    secretHash: text("secret_hash").notNull(),
    accountId: accountRef(),
    iamUserId: text("iam_user_id").references(() => iamUsers.iamUserId, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("one_time_secrets_hash_idx").on(t.secretHash)],
);

/**
 * The abuse limits' counters (platform/domain/abuse-limits.ts): one row per limit and key (an
 * address, or an address and an account), in the shape rate-limiter-flexible's RateLimiterDrizzle
 * store reads and writes. Shared by every platform instance on the database.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

export const contacts = pgTable(
  "contacts",
  {
    contactId: text("contact_id").primaryKey(),
    accountId: accountRef(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull().default(""),
    companyName: text("company_name").notNull().default(""),
    contactType: text("contact_type").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // What a list search (`q`) reads: one lower-cased text per row, so a search is one LIKE per
    // row and word instead of seven lower() calls (docs/decisions/2026-11-23-lists-on-the-platform.md).
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(first_name || ' ' || last_name || ' ' || email || ' ' || phone || ' ' || contact_type || ' ' || company_name || ' ' || address)`,
      ),
  },
  (t) => [
    index("contacts_account_idx").on(t.accountId),
    // The lists' default order (creation time): the first and the last page read the index, not a sort.
    index("contacts_account_created_idx").on(t.accountId, t.createdAt, t.contactId),
  ],
);

/** A contact's assignment to an entity, with the contact types it holds there (comma-joined). */
export const contactEntities = pgTable(
  "contact_entities",
  {
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.contactId, { onDelete: "cascade" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.entityId, { onDelete: "cascade" }),
    contactTypes: text("contact_types").notNull(),
    createdAt: createdAt(),
  },
  // The entity index serves "contacts of an entity" (get_contact, remove_entity) and the cascade from entities.
  (t) => [primaryKey({ columns: [t.contactId, t.entityId] }), index("contact_entities_entity_idx").on(t.entityId)],
);

/** Every mutating call, for /histories. Bodies are stored with secrets removed. */
export const apiLog = pgTable(
  "api_log",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    iamUserId: text("iam_user_id"),
    accountUsername: text("account_username").notNull(),
    iamUserUsername: text("iam_user_username"),
    method: text("method").notNull(),
    urlPath: text("url_path").notNull(),
    requestBody: jsonb("request_body"),
    queryParameters: jsonb("query_parameters"),
    status: integer("status").notNull(),
    /** The request id of the call (X-Request-Id, made at the console): the row beside its log lines. */
    requestId: text("request_id"),
    createdAt: createdAt(),
  },
  // The change log's order (time, id) and its command filter read these indexes, so the first and
  // the last page of a million rows cost the same (the username filter's index is an expression:
  // migration *_support_sql).
  (t) => [
    index("api_log_account_time_idx").on(t.accountId, t.createdAt, t.id),
    index("api_log_account_path_idx").on(t.accountId, t.urlPath, t.createdAt, t.id),
  ],
);

export const accountOps = pgTable("account_ops", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.accountId, { onDelete: "cascade" }),
  webhookUrl: text("webhook_url").notNull().default(""),
  email: text("email").notNull().default(""),
  signatureKey: text("signature_key").notNull(),
  updatedAt: updatedAt(),
});

/**
 * An uploaded (or being uploaded) PCAP capture. `pcap_file_key` is `{account_id}_pcap-…`; the
 * object of that key is in the object store (platform/storage). `upload_started_at` is set
 * once, by the first upload through the key's signed URL: that makes the URL single-use.
 * `analysis_*`: its analysis on the job queue (domain/pcap-analysis.ts): null before the first
 * analyse request, then queued → analysing → done, or failed with the answer's status and message.
 */
export const pcapFiles = pgTable(
  "pcap_files",
  {
    pcapFileKey: text("pcap_file_key").primaryKey(),
    accountId: accountRef(),
    iamUserId: text("iam_user_id").references(() => iamUsers.iamUserId, { onDelete: "set null" }),
    pcapFileName: text("pcap_file_name").notNull(),
    size: bigint("size", { mode: "number" }),
    uploadStartedAt: timestamp("upload_started_at", { withTimezone: true }),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }),
    analysisState: text("analysis_state").$type<PcapAnalysisState>(),
    /** The pg-boss job of the current analysis (its state tells a job given up on). */
    analysisJobId: text("analysis_job_id"),
    analysisQueuedAt: timestamp("analysis_queued_at", { withTimezone: true }),
    analysisStartedAt: timestamp("analysis_started_at", { withTimezone: true }),
    analysisFinishedAt: timestamp("analysis_finished_at", { withTimezone: true }),
    /** A failed analysis: the status analyze-s3-pcap answers (422, 413, 404) and its detail. */
    analysisFailureStatus: integer("analysis_failure_status"),
    analysisFailure: text("analysis_failure"),
    createdAt: createdAt(),
  },
  (t) => [index("pcap_files_account_idx").on(t.accountId, t.createdAt)],
);

/** The analysis of a capture, cached so re-reading it and flow reports do not re-parse the file. */
export const pcapAnalyses = pgTable(
  "pcap_analyses",
  {
    pcapFileKey: text("pcap_file_key")
      .primaryKey()
      .references(() => pcapFiles.pcapFileKey, { onDelete: "cascade" }),
    accountId: accountRef(),
    pcapFileName: text("pcap_file_name").notNull(),
    // The object version the result was computed from (store etag); another version is re-analysed.
    objectEtag: text("object_etag").notNull(),
    result: jsonb("result").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("pcap_analyses_account_idx").on(t.accountId)],
);

export const now = sql`now()`;

// ---------------------------------------------------------------------------------------------
// Support Center (spec 3 §2.12, §3 Ticket) and the change log's counter (§2.13)

/** A support ticket. `state` is 'Open' until resolved, then 'Closed' for good. */
export const tickets = pgTable(
  "tickets",
  {
    ticketId: text("ticket_id").primaryKey(),
    accountId: accountRef(),
    title: text("title").notNull(),
    category: text("category").notNull(),
    priority: text("priority").notNull(),
    state: text("state").notNull().default("Open"),
    deviceId: text("device_id"),
    entityId: text("entity_id"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("tickets_account_created_idx").on(t.accountId, t.createdAt, t.ticketId)],
);

/** A ticket's correspondence: the description as the first entry, then every reply. */
export const ticketCorrespondence = pgTable(
  "ticket_correspondence",
  {
    correspondenceId: text("correspondence_id").primaryKey(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.ticketId, { onDelete: "cascade" }),
    correspondence: text("correspondence").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ticket_correspondence_ticket_idx").on(t.ticketId, t.createdAt)],
);

/**
 * Ticket events (created, reply, resolved), written in the same transaction as the change: an
 * outbox for the account's operations webhook and e-mail (spec 2 /operations), which a sender
 * delivers and marks (`delivered_at`) once those notifications exist.
 */
export const ticketEvents = pgTable(
  "ticket_events",
  {
    eventId: text("event_id").primaryKey(),
    accountId: accountRef(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.ticketId, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: createdAt(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [index("ticket_events_undelivered_idx").on(t.createdAt).where(sql`delivered_at is null`), index("ticket_events_ticket_idx").on(t.ticketId)],
);

/** How many API log rows an account has, kept by statement triggers (migration *_support_sql). */
export const apiLogCounts = pgTable("api_log_counts", {
  accountId: text("account_id").primaryKey(),
  n: bigint("n", { mode: "number" }).notNull().default(0),
});

/**
 * The shared read cache's epoch (platform/lib/auth.ts, "shared" mode): every write moves it on
 * after it commits; a remembered answer counts only while the epoch is the one it was read under.
 * A sequence, not a row: nextval takes no lock, so concurrent writes never queue on it.
 */
export const cacheEpoch = pgSequence("cache_epoch");

/**
 * Each account's part of the shared read cache's epoch: a write made by a caller of the account, or
 * a fleet change to one of its devices, moves only this account's on (+1; the global part, the
 * sequence above, stays), so other accounts' remembered answers stay good. No foreign key: a row is
 * written after the change has committed, and an account removed meanwhile must not make that fail.
 */
export const accountCacheEpochs = pgTable("account_cache_epochs", {
  accountId: text("account_id").primaryKey(),
  epoch: bigint("epoch", { mode: "number" }).notNull(),
});

// Billing (spec 1 §3 Billing, §7 Billing): one method per provider per account.

/** A billing method of an account: provider 'Stripe' (a card, a customer and its subscription) or 'Aws'. */
export const billingMethods = pgTable(
  "billing_methods",
  {
    accountId: accountRef(),
    provider: text("provider").notNull(),
    /** subscription_info.customer_identifier: the Stripe customer id (cus_…). */
    customerIdentifier: text("customer_identifier").notNull(),
    subscriptionId: text("subscription_id"),
    subscriptionStatus: text("subscription_status"),
    paymentMethodId: text("payment_method_id"),
    preferred: boolean("preferred").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.provider] }), index("billing_methods_customer_idx").on(t.customerIdentifier)],
);

/** A Stripe Checkout Session (setup mode) started by an account: the no-JavaScript card path. */
export const stripeCheckouts = pgTable("stripe_checkouts", {
  sessionId: text("session_id").primaryKey(),
  accountId: accountRef(),
  customerId: text("customer_id").notNull(),
  completedAt: timestamp("completed_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** Stripe webhook events, each stored once (its id). */
export const stripeEvents = pgTable("stripe_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  accountId: text("account_id").references(() => accounts.accountId, { onDelete: "set null" }),
  payload: jsonb("payload").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
/*
 * App services, hostings, endpoints and their node groups (issue #12; spec 1 §3, spec 2 §3).
 * The node groups are created here in the shape spec 2 §3 gives; the nodes issue extends them
 * (nodes, certificates) rather than replacing them. Lists of addresses (subnets, pools, routes,
 * DNS servers, CIDRs) are JSON arrays of strings.
 */

/** Spec 2 §3 Service node group: service_node_group_id, service_node_group_name, external_certificate, created_at. */
export const serviceNodeGroups = pgTable(
  "service_node_groups",
  {
    serviceNodeGroupId: text("service_node_group_id").primaryKey(),
    accountId: accountRef(),
    serviceNodeGroupName: text("service_node_group_name").notNull(),
    externalCertificate: boolean("external_certificate").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("service_node_groups_account_name_uq").on(t.accountId, t.serviceNodeGroupName)],
);

/** Spec 2 §3 Endpoint node group: ep_node_group_id, ep_node_group_name, created_at, DHCP relay, VRRP. */
export const endpointNodeGroups = pgTable(
  "endpoint_node_groups",
  {
    epNodeGroupId: text("ep_node_group_id").primaryKey(),
    accountId: accountRef(),
    epNodeGroupName: text("ep_node_group_name").notNull(),
    dhcpRelayEnabled: boolean("dhcp_relay_enabled").notNull().default(false),
    dhcpRelayServerIp: text("dhcp_relay_server_ip"),
    vrrpEnabled: boolean("vrrp_enabled").notNull().default(false),
    vrrpVirtualIp: text("vrrp_virtual_ip"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("endpoint_node_groups_account_name_uq").on(t.accountId, t.epNodeGroupName)],
);

/** Spec 1 §3 AppService. Contacts: primary = business, secondary = technical. */
export const appServices = pgTable(
  "app_services",
  {
    appServiceId: text("app_service_id").primaryKey(),
    accountId: accountRef(),
    appServiceName: text("app_service_name").notNull(),
    description: text("description").notNull().default(""),
    // onprem | aws | azure | network
    deployment: text("deployment").$type<AppServiceDeployment>().notNull(),
    fqdn: text("fqdn").notNull().default(""),
    // tcp | udp | ftp ('' for network)
    proto: text("proto").notNull().default(""),
    port: integer("port"),
    region: text("region").notNull().default(""),
    // aws: the endpoint service name; azure: the private link service id.
    cloudEndpointServiceName: text("cloud_endpoint_service_name").notNull().default(""),
    serviceNodeGroupId: text("service_node_group_id").references(() => serviceNodeGroups.serviceNodeGroupId, { onDelete: "restrict" }),
    ...stateColumns(),
    // small | medium | large | xlarge (platform/contract/app-services.ts appServiceSizes)
    size: text("size").$type<Size>().notNull().default("small"),
    // 0–100, from platform/fleet at the last op state change; null until measured.
    health: integer("health"),
    // Azure
    openAiPrivateLink: boolean("open_ai_private_link").notNull().default(false),
    privateEndpointIpAddress: text("private_endpoint_ip_address").notNull().default(""),
    azureUserEmail: text("azure_user_email").notNull().default(""),
    localVnetResourceId: text("local_vnet_resource_id").notNull().default(""),
    remoteVnetResourceId: text("remote_vnet_resource_id").notNull().default(""),
    // Network mode
    networkModeEnabled: boolean("network_mode_enabled").notNull().default(false),
    addressTranslationEnabled: boolean("address_translation_enabled").notNull().default(false),
    bgpEnabled: boolean("bgp_enabled").notNull().default(false),
    bgpLocalAsn: bigint("bgp_local_asn", { mode: "number" }),
    bgpPeerAsn: bigint("bgp_peer_asn", { mode: "number" }),
    bgpLocalIp: text("bgp_local_ip").notNull().default(""),
    bgpPeerIp: text("bgp_peer_ip").notNull().default(""),
    virtualSubnetPools: jsonb("virtual_subnet_pools").$type<string[]>().notNull().default([]),
    realSubnets: jsonb("real_subnets").$type<string[]>().notNull().default([]),
    virtualSubnets: jsonb("virtual_subnets").$type<string[]>().notNull().default([]),
    primaryContactId: text("primary_contact_id").references(() => contacts.contactId, { onDelete: "set null" }),
    secondaryContactId: text("secondary_contact_id").references(() => contacts.contactId, { onDelete: "set null" }),
    createdAt: createdAt(),
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(app_service_name || ' ' || app_service_id || ' ' || deployment || ' ' || proto || ' ' || fqdn || ' ' || region || ' ' || description)`,
      ),
  },
  (t) => [index("app_services_account_created_idx").on(t.accountId, t.createdAt, t.appServiceId)],
);

/** Spec 1 §3 Hosting: where an app service is hosted; priority 1 is the primary hosting made at create. */
export const hostings = pgTable(
  "hostings",
  {
    hostingId: text("hosting_id").primaryKey(),
    appServiceId: text("app_service_id")
      .notNull()
      .references(() => appServices.appServiceId, { onDelete: "cascade" }),
    accountId: accountRef(),
    priorityId: integer("priority_id").notNull(),
    // cloud | onprem
    hostingType: text("hosting_type").$type<"cloud" | "onprem">().notNull(),
    // aws | azure | onprem
    serviceProvider: text("service_provider").notNull(),
    region: text("region").notNull().default(""),
    cloudEndpointServiceName: text("cloud_endpoint_service_name").notNull().default(""),
    fqdn: text("fqdn").notNull().default(""),
    serviceNodeGroupId: text("service_node_group_id").references(() => serviceNodeGroups.serviceNodeGroupId, { onDelete: "restrict" }),
    adminState: text("admin_state").notNull().default("up"),
    opState: text("op_state").notNull().default("up"),
    opStateChangeAt: timestamp("op_state_change_at", { withTimezone: true }).notNull().defaultNow(),
    size: text("size").$type<Size>().notNull().default("small"),
    health: integer("health"),
    createdAt: createdAt(),
  },
  (t) => [index("hostings_app_service_idx").on(t.appServiceId, t.priorityId)],
);

/** Spec 1 §3 Endpoint: consumes an app service. */
export const endpoints = pgTable(
  "endpoints",
  {
    epId: text("ep_id").primaryKey(),
    accountId: accountRef(),
    epName: text("ep_name").notNull(),
    description: text("description").notNull().default(""),
    // agent | onprem | aws | azure | network
    deployment: text("deployment").$type<EndpointDeployment>().notNull(),
    fqdn: text("fqdn").notNull().default(""),
    ipAddr: text("ip_addr").notNull().default(""),
    ...stateColumns(),
    // small | medium | large | xlarge
    size: text("size").$type<Size>().notNull().default("small"),
    // Deleting an app service that still has endpoints is refused (remove-app-service names them).
    appServiceId: text("app_service_id")
      .notNull()
      .references(() => appServices.appServiceId, { onDelete: "restrict" }),
    hostingId: text("hosting_id").references(() => hostings.hostingId, { onDelete: "set null" }),
    // pending | approved | rejected (approve-endpoint, reject-endpoint)
    approvalStatus: text("approval_status").$type<ApprovalStatus>().notNull().default("pending"),
    region: text("region").notNull().default(""),
    // aws: the allowed principal; azure: the subscription id.
    consumerPrinciple: text("consumer_principle").notNull().default(""),
    // The endpoint node (spec 2; its table belongs to the nodes issue) and its group.
    epNodeId: text("ep_node_id"),
    epNodeGroupId: text("ep_node_group_id").references(() => endpointNodeGroups.epNodeGroupId, { onDelete: "restrict" }),
    networkModeEnabled: boolean("network_mode_enabled").notNull().default(false),
    addressTranslationEnabled: boolean("address_translation_enabled").notNull().default(false),
    bgpEnabled: boolean("bgp_enabled").notNull().default(false),
    bgpLocalAsn: bigint("bgp_local_asn", { mode: "number" }),
    bgpPeerAsn: bigint("bgp_peer_asn", { mode: "number" }),
    bgpLocalIp: text("bgp_local_ip").notNull().default(""),
    bgpPeerIp: text("bgp_peer_ip").notNull().default(""),
    bgpAdvertisedRoutes: jsonb("bgp_advertised_routes").$type<string[]>().notNull().default([]),
    realSubnets: jsonb("real_subnets").$type<string[]>().notNull().default([]),
    virtualSubnets: jsonb("virtual_subnets").$type<string[]>().notNull().default([]),
    // Advanced visibility (configure-endpoint-proxying).
    proxyingEnabled: boolean("proxying_enabled").notNull().default(false),
    userAgentDnsServers: jsonb("user_agent_dns_servers").$type<string[]>().notNull().default([]),
    userAgentCidrs: jsonb("user_agent_cidrs").$type<string[]>().notNull().default([]),
    primaryContactId: text("primary_contact_id").references(() => contacts.contactId, { onDelete: "set null" }),
    secondaryContactId: text("secondary_contact_id").references(() => contacts.contactId, { onDelete: "set null" }),
    createdAt: createdAt(),
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(ep_name || ' ' || ep_id || ' ' || deployment || ' ' || app_service_id || ' ' || fqdn || ' ' || ip_addr || ' ' || region || ' ' || description)`,
      ),
  },
  (t) => [
    index("endpoints_account_created_idx").on(t.accountId, t.createdAt, t.epId),
    index("endpoints_app_service_idx").on(t.appServiceId),
    index("endpoints_hosting_idx").on(t.hostingId),
    index("endpoints_ep_node_group_idx").on(t.epNodeGroupId),
  ],
);

/*
 * User agents and their links to endpoints (spec 2 §3 User agent; spec 1 §3 "User agent (shown on
 * an endpoint)"), created by the endpoints module for its Agents tab; the user agents issue adds
 * its calls on them. Op state and authentication come from platform/fleet (userAgentStatus).
 */
export const userAgents = pgTable(
  "user_agents",
  {
    userAgentId: text("user_agent_id").primaryKey(),
    accountId: accountRef(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    description: text("description").notNull().default(""),
    appServiceId: text("app_service_id").references(() => appServices.appServiceId, { onDelete: "set null" }),
    adminState: text("admin_state").notNull().default("up"),
    createdAt: createdAt(),
  },
  (t) => [index("user_agents_account_idx").on(t.accountId, t.createdAt)],
);

/** A user agent may be linked to several endpoints (spec 2 §4). */
export const userAgentEndpoints = pgTable(
  "user_agent_endpoints",
  {
    userAgentId: text("user_agent_id")
      .notNull()
      .references(() => userAgents.userAgentId, { onDelete: "cascade" }),
    epId: text("ep_id")
      .notNull()
      .references(() => endpoints.epId, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userAgentId, t.epId] }), index("user_agent_endpoints_ep_idx").on(t.epId)],
);

// ── #28 nodes ──
/*
 * Service nodes and endpoint nodes (spec 2 §3), their form factors, the files made for them, the
 * registration tokens and the service node groups' external certificates (issue #28). A node is
 * unregistered (op state down, registered_at null) until the fleet clock registers it a short
 * while after its form factor is set (registers_at), or it registers itself with its token.
 */

/** The form-factor columns both node kinds carry (spec 2 §3 form-factor values). */
const formFactorColumns = () => ({
  // ova | ami | hw | hosted_aws; null: skipped for now.
  formFactor: text("form_factor").$type<FormFactor>(),
  formFactorSetAt: timestamp("form_factor_set_at", { withTimezone: true }),
  shippingAddr: text("shipping_addr").notNull().default(""),
  hostedRegion: text("hosted_region").notNull().default(""),
  hostedVpcCidr: text("hosted_vpc_cidr").notNull().default(""),
  hostedPeerIp: text("hosted_peer_ip").notNull().default(""),
  hostedPeerPrefix: integer("hosted_peer_prefix"),
  // The prepared OVA and the last VPN configuration (node_files.file_name).
  ovaFile: text("ova_file"),
  vpnConfigFile: text("vpn_config_file"),
  // When the fleet clock registers the node (set once, with the first form factor).
  registersAt: timestamp("registers_at", { withTimezone: true }),
  registeredAt: timestamp("registered_at", { withTimezone: true }),
});

/** Node state: admin up from creation; op state down until the node registers. */
const nodeStateColumns = () => ({
  adminState: text("admin_state").notNull().default("up"),
  adminStateChangeAt: timestamp("admin_state_change_at", { withTimezone: true }).notNull().defaultNow(),
  opState: text("op_state").notNull().default("down"),
  opStateChangeAt: timestamp("op_state_change_at", { withTimezone: true }).notNull().defaultNow(),
});

export const serviceNodes = pgTable(
  "service_nodes",
  {
    serviceNodeId: text("service_node_id").primaryKey(),
    accountId: accountRef(),
    serviceNodeName: text("service_node_name").notNull(),
    serviceNodeGroupId: text("service_node_group_id")
      .notNull()
      .references(() => serviceNodeGroups.serviceNodeGroupId, { onDelete: "restrict" }),
    description: text("description").notNull().default(""),
    privateIp: text("private_ip").notNull().default(""),
    ...nodeStateColumns(),
    ...formFactorColumns(),
    createdAt: createdAt(),
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(service_node_name || ' ' || service_node_id || ' ' || service_node_group_id || ' ' || coalesce(form_factor, '') || ' ' || private_ip || ' ' || description)`),
  },
  (t) => [index("service_nodes_account_created_idx").on(t.accountId, t.createdAt, t.serviceNodeId), index("service_nodes_group_idx").on(t.serviceNodeGroupId)],
);

export const endpointNodes = pgTable(
  "endpoint_nodes",
  {
    epNodeId: text("ep_node_id").primaryKey(),
    accountId: accountRef(),
    epNodeName: text("ep_node_name").notNull(),
    epNodeGroupId: text("ep_node_group_id")
      .notNull()
      .references(() => endpointNodeGroups.epNodeGroupId, { onDelete: "restrict" }),
    primaryIp: text("primary_ip").notNull().default(""),
    secondaryIps: jsonb("secondary_ips").$type<string[]>().notNull().default([]),
    lanInterfaceEnabled: boolean("lan_interface_enabled").notNull().default(false),
    lanInterfaceIpaddress: text("lan_interface_ipaddress").notNull().default(""),
    ...nodeStateColumns(),
    ...formFactorColumns(),
    createdAt: createdAt(),
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(ep_node_name || ' ' || ep_node_id || ' ' || ep_node_group_id || ' ' || coalesce(form_factor, '') || ' ' || primary_ip)`),
  },
  (t) => [index("endpoint_nodes_account_created_idx").on(t.accountId, t.createdAt, t.epNodeId), index("endpoint_nodes_group_idx").on(t.epNodeGroupId)],
);

/** Files made for a node (the OVA, the WireGuard configuration): encrypted at rest (AES-256-GCM, base64), served to the owner only. */
export const nodeFiles = pgTable(
  "node_files",
  {
    fileName: text("file_name").primaryKey(),
    accountId: accountRef(),
    nodeId: text("node_id").notNull(),
    // ova | vpn
    kind: text("kind").$type<"ova" | "vpn">().notNull(),
    contentEnc: text("content_enc").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("node_files_node_idx").on(t.nodeId)],
);

/** Registration tokens (in an OVA or cloud-init data): only their SHA-256 is kept; single use; 24 h. */
export const nodeRegistrationTokens = pgTable(
  "node_registration_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: accountRef(),
    nodeId: text("node_id").notNull(),
    // service_node | endpoint_node
    nodeKind: text("node_kind").$type<"service_node" | "endpoint_node">().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("node_registration_tokens_node_idx").on(t.nodeId)],
);

/** A service node group's external certificate: what passed the checks; the private key encrypted at rest. */
export const serviceNodeGroupCertificates = pgTable("service_node_group_certificates", {
  serviceNodeGroupId: text("service_node_group_id")
    .primaryKey()
    .references(() => serviceNodeGroups.serviceNodeGroupId, { onDelete: "cascade" }),
  accountId: accountRef(),
  certificatePem: text("certificate_pem").notNull(),
  caChainPem: text("ca_chain_pem").notNull(),
  privateKeyEnc: text("private_key_enc").notNull(),
  subject: text("subject").notNull(),
  issuer: text("issuer").notNull(),
  serialNumber: text("serial_number").notNull(),
  validFrom: timestamp("valid_from", { withTimezone: true }).notNull(),
  validTo: timestamp("valid_to", { withTimezone: true }).notNull(),
  fingerprintSha256: text("fingerprint_sha256").notNull(),
  importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
});

// ── #24 operations ──
/*
 * Event notifications (spec 2 §2 /operations; platform/webhooks). The settings are account_ops
 * (above); these tables are the outbox: an event and its deliveries are written in the transaction
 * of the change that caused them, and workers claim due deliveries with FOR UPDATE SKIP LOCKED.
 */

/** Per account: the previous signing secret during a rotation, the endpoint's failure state, the last digest mail. */
export const opsWebhooks = pgTable("ops_webhooks", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.accountId, { onDelete: "cascade" }),
  previousKey: text("previous_key"),
  previousKeyUntil: timestamp("previous_key_until", { withTimezone: true }),
  failingSince: timestamp("failing_since", { withTimezone: true }),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  disabledReason: text("disabled_reason"),
  lastMailAt: timestamp("last_mail_at", { withTimezone: true }),
});

/** One event (`msg_…`, the webhook-id): its payload `{type, timestamp, data}` as sent. `source_key` makes a replayed cause insert nothing. */
export const opsEvents = pgTable(
  "ops_events",
  {
    eventId: text("event_id").primaryKey(),
    accountId: accountRef(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    sourceKey: text("source_key"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("ops_events_source_key_idx").on(t.sourceKey)],
);

/** One delivery of an event to the account's webhook address; `attempt` counts the attempts made. */
export const opsDeliveries = pgTable(
  "ops_deliveries",
  {
    deliveryId: text("delivery_id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => opsEvents.eventId, { onDelete: "cascade" }),
    accountId: accountRef(),
    url: text("url").notNull(),
    /** pending (its next attempt due at next_attempt_at), sending (an attempt in flight), succeeded, failed. */
    status: text("status").notNull().default("pending"),
    attempt: integer("attempt").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    httpStatus: integer("http_status"),
    latencyMs: integer("latency_ms"),
    error: text("error"),
    /** The job-queue job (`webhook-delivery`) of the next attempt, or of the one in flight; only it makes the attempt. Null once finished, or while none was sent yet. */
    jobId: text("job_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ops_deliveries_unqueued_idx").on(t.createdAt).where(sql`job_id is null and status in ('pending', 'sending')`),
    index("ops_deliveries_account_idx").on(t.accountId, t.createdAt, t.deliveryId),
  ],
);

/** An event waiting for the account's next digest e-mail (grouped: at most one mail per account per 10 minutes). */
export const opsMail = pgTable(
  "ops_mail",
  {
    eventId: text("event_id")
      .primaryKey()
      .references(() => opsEvents.eventId, { onDelete: "cascade" }),
    accountId: accountRef(),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("ops_mail_unsent_idx").on(t.accountId, t.createdAt).where(sql`sent_at is null`)],
);

// ── #25 devices ──
/*
 * Internet NIDs (CPE) and Metro Ethernet NIDs (spec 3 §3), their announced maintenance and their
 * activation tests (ITU-T Y.1564: state in rows, so a test started through one platform instance
 * streams from any other and survives a restart). Behaviour comes from platform/fleet.
 */
const deviceColumns = () => ({
  accountId: accountRef(),
  prodCode: text("prod_code").notNull(),
  entityId: text("entity_id").references((): AnyPgColumn => entities.entityId, { onDelete: "set null" }),
  description: text("description").notNull().default(""),
  siteAddress: text("site_address").notNull().default(""),
  shippingAddress: text("shipping_address").notNull().default(""),
  trackingNumber: text("tracking_number").notNull().default(""),
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
  region: text("region").notNull().default(""),
  // active | inactive (BN-CPE-IP until Activate Service)
  adminState: text("admin_state").notNull().default("active"),
  adminStateChangeAt: timestamp("admin_state_change_at", { withTimezone: true }).notNull().defaultNow(),
  // up | down; null until the fleet clock first sets it ('N/A')
  opState: text("op_state"),
  opStateChangeAt: timestamp("op_state_change_at", { withTimezone: true }),
  state: text("state").notNull().default("ordered"),
  // none | running | passed | failed: the last activation test
  testStatus: text("test_status").notNull().default("none"),
  providerServiceId: text("provider_service_id").notNull().default(""),
  clientCircuitId: text("client_circuit_id").notNull().default(""),
  contactName: text("contact_name").notNull().default(""),
  contactEmail: text("contact_email").notNull().default(""),
  contactPhone: text("contact_phone").notNull().default(""),
  netflowEnabled: boolean("netflow_enabled").notNull().default(false),
  monitorInboundPubIpEnabled: boolean("monitor_inbound_pub_ip_enabled").notNull().default(false),
  monitorOutboundPubIpEnabled: boolean("monitor_outbound_pub_ip_enabled").notNull().default(false),
  maliciousIpBlockEnabled: boolean("malicious_ip_block_enabled").notNull().default(false),
  denialOfServiceEnabled: boolean("denial_of_service_enabled").notNull().default(false),
  // {tcp_syn_flood_thresholds, udp_thresholds, icmp_thresholds}; null: spec 3 §9's defaults
  ddosThresholds: jsonb("ddos_thresholds").$type<Record<string, { alert_threshold: number; block_threshold: number; max_threshold: number }>>(),
  wanCirMbps: doublePrecision("wan_cir_mbps"),
  wanEirMbps: doublePrecision("wan_eir_mbps"),
  // reset_node times (ms), the last few: the fleet keeps the device down while it reboots
  resets: jsonb("resets").$type<number[]>().notNull().default([]),
  // reset_interface: interface → ms
  interfaceResets: jsonb("interface_resets").$type<Record<string, number>>().notNull().default({}),
  // generate_node_token: the current registration token, hashed (the previous one stops working)
  tokenHash: text("token_hash"),
  tokenIssuedAt: timestamp("token_issued_at", { withTimezone: true }),
  tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
  createdAt: createdAt(),
});

export const cpes = pgTable(
  "cpes",
  {
    cpeId: text("cpe_id").primaryKey(),
    cpeName: text("cpe_name").notNull(),
    ...deviceColumns(),
    speedTestIp: text("speed_test_ip").notNull().default(""),
    pingDnsIp: text("ping_dns_ip").notNull().default(""),
    pingGwIp: text("ping_gw_ip").notNull().default(""),
    pingEmailNotification: boolean("ping_email_notification").notNull().default(false),
    pingWebhookNotification: boolean("ping_webhook_notification").notNull().default(false),
    ipMonitorTarget: text("ip_monitor_target").notNull().default("8.8.8.8"),
    scanGap: integer("scan_gap").notNull().default(1),
    iperfServer: boolean("iperf_server").notNull().default(false),
    appVisibilityEnabled: boolean("app_visibility_enabled").notNull().default(false),
    perfTestScheduled: boolean("perf_test_scheduled").notNull().default(false),
    perfTestHourOfDay: integer("perf_test_hour_of_day"),
    perfTestPeerRegion: text("perf_test_peer_region"),
    perfTestPeerIp: text("perf_test_peer_ip"),
    mode: text("mode").notNull().default("ROUTER"),
    wanAddressing: text("wan_addressing").notNull().default("dhcp"),
    wanCidr: text("wan_cidr").notNull().default(""),
    wanGateway: text("wan_gateway").notNull().default(""),
    dnsServers: jsonb("dns_servers").$type<string[]>().notNull().default([]),
    lanCidr: text("lan_cidr").notNull().default("192.168.1.1/24"),
    // The last speed test asked for (start_cpe_speedtest_cli): its result is a function of when it started.
    speedtestType: text("speedtest_type"),
    speedtestStartedAt: timestamp("speedtest_started_at", { withTimezone: true }),
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(cpe_name || ' ' || cpe_id || ' ' || prod_code || ' ' || site_address || ' ' || provider_service_id || ' ' || client_circuit_id || ' ' || description)`),
  },
  (t) => [index("cpes_account_name_idx").on(t.accountId, t.cpeName, t.cpeId), index("cpes_entity_idx").on(t.entityId), index("cpes_token_idx").on(t.tokenHash)],
);

export const metros = pgTable(
  "metros",
  {
    metroId: text("metro_id").primaryKey(),
    metroName: text("metro_name").notNull(),
    ...deviceColumns(),
    wanDataVlanId: integer("wan_data_vlan_id"),
    wanQInQVlanId: integer("wan_q_in_q_vlan_id"),
    lanDataVlanId: integer("lan_data_vlan_id"),
    lanQInQVlanId: integer("lan_q_in_q_vlan_id"),
    wanMgmtVlanId: integer("wan_mgmt_vlan_id").notNull().default(100),
    wanSfp: text("wan_sfp"),
    lanSfp: text("lan_sfp"),
    oamLoopbackEnabled: boolean("oam_loopback_enabled").notNull().default(false),
    oamCcpEnabled: boolean("oam_ccp_enabled").notNull().default(false),
    oamCcmInterval: text("oam_ccm_interval"),
    oamMdName: text("oam_md_name"),
    oamMdLevel: integer("oam_md_level"),
    oamMdAssociation: text("oam_md_association"),
    oamMepId: integer("oam_mep_id"),
    oamVlanId: integer("oam_vlan_id"),
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(metro_name || ' ' || metro_id || ' ' || prod_code || ' ' || site_address || ' ' || provider_service_id || ' ' || client_circuit_id || ' ' || description)`),
  },
  (t) => [index("metros_account_name_idx").on(t.accountId, t.metroName, t.metroId), index("metros_entity_idx").on(t.entityId), index("metros_token_idx").on(t.tokenHash)],
);

/** Announced maintenance of a device (cpe_add_announcement, metro_add_announcement). */
export const deviceAnnouncements = pgTable(
  "device_announcements",
  {
    announcementId: text("announcement_id").primaryKey(),
    accountId: accountRef(),
    deviceId: text("device_id").notNull(),
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }).notNull(),
    duration: integer("duration").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("device_announcements_device_idx").on(t.deviceId, t.startTime)],
);

/** An activation test (ITU-T Y.1564): what was asked, and the report once done. */
export const deviceTests = pgTable(
  "device_tests",
  {
    sseId: text("sse_id").primaryKey(),
    accountId: accountRef(),
    deviceId: text("device_id").notNull(),
    // cpe | metro
    kind: text("kind").notNull(),
    deviceName: text("device_name").notNull(),
    prodCode: text("prod_code").notNull(),
    peer: jsonb("peer").$type<{ peer_ip?: string; peer_mac?: string; vlan_id?: number }>().notNull(),
    megLevel: integer("meg_level"),
    cirMbps: doublePrecision("cir_mbps").notNull(),
    eirMbps: doublePrecision("eir_mbps").notNull(),
    criteria: jsonb("criteria").$type<{ ftd_max_ms: number; fdv_max_ms: number; flr_max_pct: number; availability_min_pct: number }>().notNull(),
    // The service performance test's duration chosen at the start, seconds (Y.1564: 900, 7200 or
    // 86400); null for a test started before the choice existed, which ran 20 s.
    performanceS: integer("performance_s"),
    // How many times faster than real time the fleet ran it (FLEET_TEST_SPEED and
    // FLEET_SERVICE_PERFORMANCE_SPEED at the start): every instance replays the same plan, and the report says so.
    configurationSpeed: doublePrecision("configuration_speed").notNull().default(1),
    performanceSpeed: doublePrecision("performance_speed").notNull().default(1),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    // running | completed | failed
    status: text("status").notNull().default("running"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    // pass | fail once completed
    result: text("result"),
    // the ActivationReport once finished (the PDF is made from it)
    report: jsonb("report").$type<Record<string, unknown>>(),
    // what the fleet needs to replay the plan: the device's site and events at the start
    fleetObject: jsonb("fleet_object").$type<{ id: string; kind: string; lat: number | null; lon: number | null; contractedMbps: number | null; down: boolean }>().notNull(),
  },
  (t) => [
    index("device_tests_device_idx").on(t.deviceId, t.startedAt),
    // One test at a time per device, however many instances start one at once (migration 0014).
    uniqueIndex("device_tests_one_running_uq").on(t.deviceId).where(sql`status = 'running'`),
  ],
);

/** One progress message of a test, written once (whichever instance gets there first). */
export const deviceTestEvents = pgTable(
  "device_test_events",
  {
    sseId: text("sse_id")
      .notNull()
      .references(() => deviceTests.sseId, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.sseId, t.seq] })],
);

// ── issue 63 item 7: e-mail the mail server refused for good ──
/**
 * A message the SMTP server refused with a permanent answer (5xx): not tried again, recorded here
 * (and in the operators' log); `account_id` when it belongs to an account (its Operations page shows it).
 */
export const mailRejections = pgTable(
  "mail_rejections",
  {
    /** The mail job's id: one row per message, whatever the retries. */
    jobId: text("job_id").primaryKey(),
    accountId: text("account_id").references(() => accounts.accountId, { onDelete: "cascade" }),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    /** The server's answer ("550 5.1.1 No such user"). */
    answer: text("answer").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("mail_rejections_account_idx").on(t.accountId, t.createdAt)],
);

// ── issue 58: service reports that arrive by themselves ──
/** Bytes (a report's PDF): Buffer in, Buffer out, on PGlite (Uint8Array) and node-postgres alike. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A report schedule (domain/report-schedules.ts): what is reported (the account, or one entity and
 * its children; `entity_name` kept so a removed entity can still be named), the calendar period
 * (monthly or weekly in `time_zone`, fired at the local `hour`) and who receives it. `active_since`:
 * periods whose firing time came before it are never sent (creation, resume, a change of period).
 */
export const reportSchedules = pgTable(
  "report_schedules",
  {
    scheduleId: text("schedule_id").primaryKey(),
    accountId: accountRef(),
    name: text("name").notNull(),
    entityId: text("entity_id"),
    entityName: text("entity_name"),
    content: jsonb("content").$type<string[]>().notNull(),
    cadence: text("cadence").notNull(),
    timeZone: text("time_zone").notNull().default("UTC"),
    hour: integer("hour").notNull().default(6),
    recipients: jsonb("recipients").$type<string[]>().notNull(),
    paused: boolean("paused").notNull().default(false),
    activeSince: timestamp("active_since", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("report_schedules_account_idx").on(t.accountId, t.name, t.scheduleId)],
);

/** An address that receives an account's reports once confirmed by the link sent to it (hashed token). */
export const reportRecipients = pgTable(
  "report_recipients",
  {
    accountId: accountRef(),
    /** Lower-cased. */
    email: text("email").notNull(),
    tokenHash: text("token_hash"),
    linkSentAt: timestamp("link_sent_at", { withTimezone: true }),
    linkExpiresAt: timestamp("link_expires_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.email] }), index("report_recipients_token_idx").on(t.tokenHash)],
);

/**
 * A report made (or being made) for a schedule: `scheduled` ones once per schedule and period (the
 * unique index: however many instances fire it), `now` ones ("Send now") as often as asked. The
 * PDF and CSV are kept for the history's download; `devices` is what it covered (the next report
 * names what was removed since).
 */
export const reportHistory = pgTable(
  "report_history",
  {
    reportId: text("report_id").primaryKey(),
    accountId: accountRef(),
    scheduleId: text("schedule_id")
      .notNull()
      .references(() => reportSchedules.scheduleId, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    periodLabel: text("period_label").notNull(),
    /** queued | sent | cancelled (paused or emptied before it was made) */
    state: text("state").notNull().default("queued"),
    requestedBy: text("requested_by"),
    summary: jsonb("summary").$type<Record<string, unknown>>(),
    devices: jsonb("devices").$type<{ id: string; name: string }[]>(),
    pdf: bytea("pdf"),
    csv: text("csv"),
    createdAt: createdAt(),
    madeAt: timestamp("made_at", { withTimezone: true }),
  },
  (t) => [
    index("report_history_schedule_idx").on(t.scheduleId, t.createdAt),
    uniqueIndex("report_history_period_uq").on(t.scheduleId, t.periodStart).where(sql`kind = 'scheduled'`),
  ],
);

/** One recipient's message of a report: its mail job (a refusal is in mail_rejections under that job id). */
export const reportDeliveries = pgTable(
  "report_deliveries",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => reportHistory.reportId, { onDelete: "cascade" }),
    recipient: text("recipient").notNull(),
    jobId: text("job_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.recipient] })],
);
