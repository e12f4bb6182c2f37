CREATE TABLE "user_agent_endpoints" (
	"user_agent_id" text NOT NULL,
	"ep_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_agent_endpoints_user_agent_id_ep_id_pk" PRIMARY KEY("user_agent_id","ep_id")
);
--> statement-breakpoint
CREATE TABLE "user_agents" (
	"user_agent_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"app_service_id" text,
	"admin_state" text DEFAULT 'up' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_agent_endpoints" ADD CONSTRAINT "user_agent_endpoints_user_agent_id_user_agents_user_agent_id_fk" FOREIGN KEY ("user_agent_id") REFERENCES "public"."user_agents"("user_agent_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_agent_endpoints" ADD CONSTRAINT "user_agent_endpoints_ep_id_endpoints_ep_id_fk" FOREIGN KEY ("ep_id") REFERENCES "public"."endpoints"("ep_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_agents" ADD CONSTRAINT "user_agents_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_agents" ADD CONSTRAINT "user_agents_app_service_id_app_services_app_service_id_fk" FOREIGN KEY ("app_service_id") REFERENCES "public"."app_services"("app_service_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_agent_endpoints_ep_idx" ON "user_agent_endpoints" USING btree ("ep_id");--> statement-breakpoint
CREATE INDEX "user_agents_account_idx" ON "user_agents" USING btree ("account_id","created_at");