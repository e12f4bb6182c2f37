CREATE TABLE "endpoint_nodes" (
	"ep_node_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"ep_node_name" text NOT NULL,
	"ep_node_group_id" text NOT NULL,
	"primary_ip" text DEFAULT '' NOT NULL,
	"secondary_ips" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lan_interface_enabled" boolean DEFAULT false NOT NULL,
	"lan_interface_ipaddress" text DEFAULT '' NOT NULL,
	"admin_state" text DEFAULT 'up' NOT NULL,
	"admin_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"op_state" text DEFAULT 'down' NOT NULL,
	"op_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"form_factor" text,
	"form_factor_set_at" timestamp with time zone,
	"shipping_addr" text DEFAULT '' NOT NULL,
	"hosted_region" text DEFAULT '' NOT NULL,
	"hosted_vpc_cidr" text DEFAULT '' NOT NULL,
	"hosted_peer_ip" text DEFAULT '' NOT NULL,
	"hosted_peer_prefix" integer,
	"ova_file" text,
	"vpn_config_file" text,
	"registers_at" timestamp with time zone,
	"registered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(ep_node_name || ' ' || ep_node_id || ' ' || ep_node_group_id || ' ' || coalesce(form_factor, '') || ' ' || primary_ip)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_files" (
	"file_name" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"node_id" text NOT NULL,
	"kind" text NOT NULL,
	"content_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_registration_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"node_id" text NOT NULL,
	"node_kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"account_id" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"http_status" integer,
	"latency_ms" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"source_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_mail" (
	"event_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ops_webhooks" (
	"account_id" text PRIMARY KEY NOT NULL,
	"previous_key" text,
	"previous_key_until" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"last_mail_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_node_group_certificates" (
	"service_node_group_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"certificate_pem" text NOT NULL,
	"ca_chain_pem" text NOT NULL,
	"private_key_enc" text NOT NULL,
	"subject" text NOT NULL,
	"issuer" text NOT NULL,
	"serial_number" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"fingerprint_sha256" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_nodes" (
	"service_node_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"service_node_name" text NOT NULL,
	"service_node_group_id" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"private_ip" text DEFAULT '' NOT NULL,
	"admin_state" text DEFAULT 'up' NOT NULL,
	"admin_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"op_state" text DEFAULT 'down' NOT NULL,
	"op_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"form_factor" text,
	"form_factor_set_at" timestamp with time zone,
	"shipping_addr" text DEFAULT '' NOT NULL,
	"hosted_region" text DEFAULT '' NOT NULL,
	"hosted_vpc_cidr" text DEFAULT '' NOT NULL,
	"hosted_peer_ip" text DEFAULT '' NOT NULL,
	"hosted_peer_prefix" integer,
	"ova_file" text,
	"vpn_config_file" text,
	"registers_at" timestamp with time zone,
	"registered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(service_node_name || ' ' || service_node_id || ' ' || service_node_group_id || ' ' || coalesce(form_factor, '') || ' ' || private_ip || ' ' || description)) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "endpoint_nodes" ADD CONSTRAINT "endpoint_nodes_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_nodes" ADD CONSTRAINT "endpoint_nodes_ep_node_group_id_endpoint_node_groups_ep_node_group_id_fk" FOREIGN KEY ("ep_node_group_id") REFERENCES "public"."endpoint_node_groups"("ep_node_group_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_files" ADD CONSTRAINT "node_files_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_registration_tokens" ADD CONSTRAINT "node_registration_tokens_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_deliveries" ADD CONSTRAINT "ops_deliveries_event_id_ops_events_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."ops_events"("event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_deliveries" ADD CONSTRAINT "ops_deliveries_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_events" ADD CONSTRAINT "ops_events_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_mail" ADD CONSTRAINT "ops_mail_event_id_ops_events_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."ops_events"("event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_mail" ADD CONSTRAINT "ops_mail_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops_webhooks" ADD CONSTRAINT "ops_webhooks_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_node_group_certificates" ADD CONSTRAINT "service_node_group_certificates_service_node_group_id_service_node_groups_service_node_group_id_fk" FOREIGN KEY ("service_node_group_id") REFERENCES "public"."service_node_groups"("service_node_group_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_node_group_certificates" ADD CONSTRAINT "service_node_group_certificates_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nodes" ADD CONSTRAINT "service_nodes_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nodes" ADD CONSTRAINT "service_nodes_service_node_group_id_service_node_groups_service_node_group_id_fk" FOREIGN KEY ("service_node_group_id") REFERENCES "public"."service_node_groups"("service_node_group_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "endpoint_nodes_account_created_idx" ON "endpoint_nodes" USING btree ("account_id","created_at","ep_node_id");--> statement-breakpoint
CREATE INDEX "endpoint_nodes_group_idx" ON "endpoint_nodes" USING btree ("ep_node_group_id");--> statement-breakpoint
CREATE INDEX "node_files_node_idx" ON "node_files" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "node_registration_tokens_node_idx" ON "node_registration_tokens" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "ops_deliveries_due_idx" ON "ops_deliveries" USING btree ("next_attempt_at") WHERE status in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "ops_deliveries_account_idx" ON "ops_deliveries" USING btree ("account_id","created_at","delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ops_events_source_key_idx" ON "ops_events" USING btree ("source_key");--> statement-breakpoint
CREATE INDEX "ops_mail_unsent_idx" ON "ops_mail" USING btree ("account_id","created_at") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "service_nodes_account_created_idx" ON "service_nodes" USING btree ("account_id","created_at","service_node_id");--> statement-breakpoint
CREATE INDEX "service_nodes_group_idx" ON "service_nodes" USING btree ("service_node_group_id");