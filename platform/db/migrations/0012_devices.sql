CREATE TABLE "cpes" (
	"cpe_id" text PRIMARY KEY NOT NULL,
	"cpe_name" text NOT NULL,
	"account_id" text NOT NULL,
	"prod_code" text NOT NULL,
	"entity_id" text,
	"description" text DEFAULT '' NOT NULL,
	"site_address" text DEFAULT '' NOT NULL,
	"shipping_address" text DEFAULT '' NOT NULL,
	"tracking_number" text DEFAULT '' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"region" text DEFAULT '' NOT NULL,
	"admin_state" text DEFAULT 'active' NOT NULL,
	"admin_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"op_state" text,
	"op_state_change_at" timestamp with time zone,
	"state" text DEFAULT 'ordered' NOT NULL,
	"test_status" text DEFAULT 'none' NOT NULL,
	"provider_service_id" text DEFAULT '' NOT NULL,
	"client_circuit_id" text DEFAULT '' NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"netflow_enabled" boolean DEFAULT false NOT NULL,
	"monitor_inbound_pub_ip_enabled" boolean DEFAULT false NOT NULL,
	"monitor_outbound_pub_ip_enabled" boolean DEFAULT false NOT NULL,
	"malicious_ip_block_enabled" boolean DEFAULT false NOT NULL,
	"denial_of_service_enabled" boolean DEFAULT false NOT NULL,
	"ddos_thresholds" jsonb,
	"wan_cir_mbps" double precision,
	"wan_eir_mbps" double precision,
	"resets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"interface_resets" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"token_hash" text,
	"token_issued_at" timestamp with time zone,
	"token_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"speed_test_ip" text DEFAULT '' NOT NULL,
	"ping_dns_ip" text DEFAULT '' NOT NULL,
	"ping_gw_ip" text DEFAULT '' NOT NULL,
	"ping_email_notification" boolean DEFAULT false NOT NULL,
	"ping_webhook_notification" boolean DEFAULT false NOT NULL,
	"ip_monitor_target" text DEFAULT '8.8.8.8' NOT NULL,
	"scan_gap" integer DEFAULT 1 NOT NULL,
	"iperf_server" boolean DEFAULT false NOT NULL,
	"app_visibility_enabled" boolean DEFAULT false NOT NULL,
	"perf_test_scheduled" boolean DEFAULT false NOT NULL,
	"perf_test_hour_of_day" integer,
	"perf_test_peer_region" text,
	"perf_test_peer_ip" text,
	"mode" text DEFAULT 'ROUTER' NOT NULL,
	"wan_addressing" text DEFAULT 'dhcp' NOT NULL,
	"wan_cidr" text DEFAULT '' NOT NULL,
	"wan_gateway" text DEFAULT '' NOT NULL,
	"dns_servers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lan_cidr" text DEFAULT '192.168.1.1/24' NOT NULL,
	"speedtest_type" text,
	"speedtest_started_at" timestamp with time zone,
	"search_text" text GENERATED ALWAYS AS (lower(cpe_name || ' ' || cpe_id || ' ' || prod_code || ' ' || site_address || ' ' || provider_service_id || ' ' || client_circuit_id || ' ' || description)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_announcements" (
	"announcement_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"device_id" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"duration" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_test_events" (
	"sse_id" text NOT NULL,
	"seq" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "device_test_events_sse_id_seq_pk" PRIMARY KEY("sse_id","seq")
);
--> statement-breakpoint
CREATE TABLE "device_tests" (
	"sse_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"device_id" text NOT NULL,
	"kind" text NOT NULL,
	"device_name" text NOT NULL,
	"prod_code" text NOT NULL,
	"peer" jsonb NOT NULL,
	"meg_level" integer,
	"cir_mbps" double precision NOT NULL,
	"eir_mbps" double precision NOT NULL,
	"criteria" jsonb NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"finished_at" timestamp with time zone,
	"result" text,
	"report" jsonb,
	"fleet_object" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metros" (
	"metro_id" text PRIMARY KEY NOT NULL,
	"metro_name" text NOT NULL,
	"account_id" text NOT NULL,
	"prod_code" text NOT NULL,
	"entity_id" text,
	"description" text DEFAULT '' NOT NULL,
	"site_address" text DEFAULT '' NOT NULL,
	"shipping_address" text DEFAULT '' NOT NULL,
	"tracking_number" text DEFAULT '' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"region" text DEFAULT '' NOT NULL,
	"admin_state" text DEFAULT 'active' NOT NULL,
	"admin_state_change_at" timestamp with time zone DEFAULT now() NOT NULL,
	"op_state" text,
	"op_state_change_at" timestamp with time zone,
	"state" text DEFAULT 'ordered' NOT NULL,
	"test_status" text DEFAULT 'none' NOT NULL,
	"provider_service_id" text DEFAULT '' NOT NULL,
	"client_circuit_id" text DEFAULT '' NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"netflow_enabled" boolean DEFAULT false NOT NULL,
	"monitor_inbound_pub_ip_enabled" boolean DEFAULT false NOT NULL,
	"monitor_outbound_pub_ip_enabled" boolean DEFAULT false NOT NULL,
	"malicious_ip_block_enabled" boolean DEFAULT false NOT NULL,
	"denial_of_service_enabled" boolean DEFAULT false NOT NULL,
	"ddos_thresholds" jsonb,
	"wan_cir_mbps" double precision,
	"wan_eir_mbps" double precision,
	"resets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"interface_resets" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"token_hash" text,
	"token_issued_at" timestamp with time zone,
	"token_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"wan_data_vlan_id" integer,
	"wan_q_in_q_vlan_id" integer,
	"lan_data_vlan_id" integer,
	"lan_q_in_q_vlan_id" integer,
	"wan_mgmt_vlan_id" integer DEFAULT 100 NOT NULL,
	"wan_sfp" text,
	"lan_sfp" text,
	"oam_loopback_enabled" boolean DEFAULT false NOT NULL,
	"oam_ccp_enabled" boolean DEFAULT false NOT NULL,
	"oam_ccm_interval" text,
	"oam_md_name" text,
	"oam_md_level" integer,
	"oam_md_association" text,
	"oam_mep_id" integer,
	"oam_vlan_id" integer,
	"search_text" text GENERATED ALWAYS AS (lower(metro_name || ' ' || metro_id || ' ' || prod_code || ' ' || site_address || ' ' || provider_service_id || ' ' || client_circuit_id || ' ' || description)) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cpes" ADD CONSTRAINT "cpes_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cpes" ADD CONSTRAINT "cpes_entity_id_entities_entity_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("entity_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_announcements" ADD CONSTRAINT "device_announcements_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_test_events" ADD CONSTRAINT "device_test_events_sse_id_device_tests_sse_id_fk" FOREIGN KEY ("sse_id") REFERENCES "public"."device_tests"("sse_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tests" ADD CONSTRAINT "device_tests_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metros" ADD CONSTRAINT "metros_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metros" ADD CONSTRAINT "metros_entity_id_entities_entity_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("entity_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cpes_account_name_idx" ON "cpes" USING btree ("account_id","cpe_name","cpe_id");--> statement-breakpoint
CREATE INDEX "cpes_entity_idx" ON "cpes" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "cpes_token_idx" ON "cpes" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "device_announcements_device_idx" ON "device_announcements" USING btree ("device_id","start_time");--> statement-breakpoint
CREATE INDEX "device_tests_device_idx" ON "device_tests" USING btree ("device_id","started_at");--> statement-breakpoint
CREATE INDEX "metros_account_name_idx" ON "metros" USING btree ("account_id","metro_name","metro_id");--> statement-breakpoint
CREATE INDEX "metros_entity_idx" ON "metros" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "metros_token_idx" ON "metros" USING btree ("token_hash");