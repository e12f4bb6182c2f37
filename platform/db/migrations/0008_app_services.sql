CREATE TABLE "app_services" (
	"app_service_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"app_service_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"deployment" text NOT NULL,
	"fqdn" text DEFAULT '' NOT NULL,
	"proto" text DEFAULT '' NOT NULL,
	"port" integer,
	"region" text DEFAULT '' NOT NULL,
	"cloud_endpoint_service_name" text DEFAULT '' NOT NULL,
	"service_node_group_id" text,
	"admin_state" text DEFAULT 'up' NOT NULL,
	"admin_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"op_state" text DEFAULT 'up' NOT NULL,
	"op_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"size" text DEFAULT 'small' NOT NULL,
	"health" integer,
	"open_ai_private_link" boolean DEFAULT false NOT NULL,
	"private_endpoint_ip_address" text DEFAULT '' NOT NULL,
	"azure_user_email" text DEFAULT '' NOT NULL,
	"local_vnet_resource_id" text DEFAULT '' NOT NULL,
	"remote_vnet_resource_id" text DEFAULT '' NOT NULL,
	"network_mode_enabled" boolean DEFAULT false NOT NULL,
	"address_translation_enabled" boolean DEFAULT false NOT NULL,
	"bgp_enabled" boolean DEFAULT false NOT NULL,
	"bgp_local_asn" bigint,
	"bgp_peer_asn" bigint,
	"bgp_local_ip" text DEFAULT '' NOT NULL,
	"bgp_peer_ip" text DEFAULT '' NOT NULL,
	"virtual_subnet_pools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"real_subnets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"virtual_subnets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"primary_contact_id" text,
	"secondary_contact_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(app_service_name || ' ' || app_service_id || ' ' || deployment || ' ' || proto || ' ' || fqdn || ' ' || region || ' ' || description)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "endpoint_node_groups" (
	"ep_node_group_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"ep_node_group_name" text NOT NULL,
	"dhcp_relay_enabled" boolean DEFAULT false NOT NULL,
	"dhcp_relay_server_ip" text,
	"vrrp_enabled" boolean DEFAULT false NOT NULL,
	"vrrp_virtual_ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "endpoints" (
	"ep_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"ep_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"deployment" text NOT NULL,
	"fqdn" text DEFAULT '' NOT NULL,
	"ip_addr" text DEFAULT '' NOT NULL,
	"admin_state" text DEFAULT 'up' NOT NULL,
	"admin_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"op_state" text DEFAULT 'up' NOT NULL,
	"op_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"size" text DEFAULT 'small' NOT NULL,
	"app_service_id" text NOT NULL,
	"hosting_id" text,
	"approval_status" text DEFAULT 'pending' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"consumer_principle" text DEFAULT '' NOT NULL,
	"ep_node_id" text,
	"ep_node_group_id" text,
	"network_mode_enabled" boolean DEFAULT false NOT NULL,
	"address_translation_enabled" boolean DEFAULT false NOT NULL,
	"bgp_enabled" boolean DEFAULT false NOT NULL,
	"bgp_local_asn" bigint,
	"bgp_peer_asn" bigint,
	"bgp_local_ip" text DEFAULT '' NOT NULL,
	"bgp_peer_ip" text DEFAULT '' NOT NULL,
	"bgp_advertised_routes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"real_subnets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"virtual_subnets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"proxying_enabled" boolean DEFAULT false NOT NULL,
	"user_agent_dns_servers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"user_agent_cidrs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"primary_contact_id" text,
	"secondary_contact_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(ep_name || ' ' || ep_id || ' ' || deployment || ' ' || app_service_id || ' ' || fqdn || ' ' || ip_addr || ' ' || region || ' ' || description)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hostings" (
	"hosting_id" text PRIMARY KEY NOT NULL,
	"app_service_id" text NOT NULL,
	"account_id" text NOT NULL,
	"priority_id" integer NOT NULL,
	"hosting_type" text NOT NULL,
	"service_provider" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"cloud_endpoint_service_name" text DEFAULT '' NOT NULL,
	"fqdn" text DEFAULT '' NOT NULL,
	"service_node_group_id" text,
	"admin_state" text DEFAULT 'up' NOT NULL,
	"op_state" text DEFAULT 'up' NOT NULL,
	"op_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"size" text DEFAULT 'small' NOT NULL,
	"health" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_node_groups" (
	"service_node_group_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"service_node_group_name" text NOT NULL,
	"external_certificate" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_services" ADD CONSTRAINT "app_services_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_services" ADD CONSTRAINT "app_services_service_node_group_id_service_node_groups_service_node_group_id_fk" FOREIGN KEY ("service_node_group_id") REFERENCES "public"."service_node_groups"("service_node_group_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_services" ADD CONSTRAINT "app_services_primary_contact_id_contacts_contact_id_fk" FOREIGN KEY ("primary_contact_id") REFERENCES "public"."contacts"("contact_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_services" ADD CONSTRAINT "app_services_secondary_contact_id_contacts_contact_id_fk" FOREIGN KEY ("secondary_contact_id") REFERENCES "public"."contacts"("contact_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_node_groups" ADD CONSTRAINT "endpoint_node_groups_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_app_service_id_app_services_app_service_id_fk" FOREIGN KEY ("app_service_id") REFERENCES "public"."app_services"("app_service_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_hosting_id_hostings_hosting_id_fk" FOREIGN KEY ("hosting_id") REFERENCES "public"."hostings"("hosting_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_ep_node_group_id_endpoint_node_groups_ep_node_group_id_fk" FOREIGN KEY ("ep_node_group_id") REFERENCES "public"."endpoint_node_groups"("ep_node_group_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_primary_contact_id_contacts_contact_id_fk" FOREIGN KEY ("primary_contact_id") REFERENCES "public"."contacts"("contact_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_secondary_contact_id_contacts_contact_id_fk" FOREIGN KEY ("secondary_contact_id") REFERENCES "public"."contacts"("contact_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hostings" ADD CONSTRAINT "hostings_app_service_id_app_services_app_service_id_fk" FOREIGN KEY ("app_service_id") REFERENCES "public"."app_services"("app_service_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hostings" ADD CONSTRAINT "hostings_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hostings" ADD CONSTRAINT "hostings_service_node_group_id_service_node_groups_service_node_group_id_fk" FOREIGN KEY ("service_node_group_id") REFERENCES "public"."service_node_groups"("service_node_group_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_node_groups" ADD CONSTRAINT "service_node_groups_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_services_account_created_idx" ON "app_services" USING btree ("account_id","created_at","app_service_id");--> statement-breakpoint
CREATE UNIQUE INDEX "endpoint_node_groups_account_name_uq" ON "endpoint_node_groups" USING btree ("account_id","ep_node_group_name");--> statement-breakpoint
CREATE INDEX "endpoints_account_created_idx" ON "endpoints" USING btree ("account_id","created_at","ep_id");--> statement-breakpoint
CREATE INDEX "endpoints_app_service_idx" ON "endpoints" USING btree ("app_service_id");--> statement-breakpoint
CREATE INDEX "endpoints_hosting_idx" ON "endpoints" USING btree ("hosting_id");--> statement-breakpoint
CREATE INDEX "endpoints_ep_node_group_idx" ON "endpoints" USING btree ("ep_node_group_id");--> statement-breakpoint
CREATE INDEX "hostings_app_service_idx" ON "hostings" USING btree ("app_service_id","priority_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_node_groups_account_name_uq" ON "service_node_groups" USING btree ("account_id","service_node_group_name");