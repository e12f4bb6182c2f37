CREATE TABLE "access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"iam_user_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_ops" (
	"account_id" text PRIMARY KEY NOT NULL,
	"webhook_url" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"signature_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"account_domain" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"logo" text,
	"mfa_enabled" boolean DEFAULT false NOT NULL,
	"idp_metalink" text DEFAULT '' NOT NULL,
	"subscriber" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_log" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"iam_user_id" text,
	"account_username" text NOT NULL,
	"iam_user_username" text,
	"method" text NOT NULL,
	"url_path" text NOT NULL,
	"request_body" jsonb,
	"query_parameters" jsonb,
	"status" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_entities" (
	"contact_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"contact_types" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_entities_contact_id_entity_id_pk" PRIMARY KEY("contact_id","entity_id")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"contact_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"company_name" text DEFAULT '' NOT NULL,
	"contact_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entities" (
	"entity_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"entity_name" text NOT NULL,
	"parent_entity_id" text,
	"description" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iam_users" (
	"iam_user_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text,
	"role" text DEFAULT 'readonly' NOT NULL,
	"entity_id" text,
	"name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"mfa_enabled" boolean DEFAULT false NOT NULL,
	"mfa_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"secret_hash" text NOT NULL,
	"account_id" text NOT NULL,
	"iam_user_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_iam_user_id_iam_users_iam_user_id_fk" FOREIGN KEY ("iam_user_id") REFERENCES "public"."iam_users"("iam_user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_ops" ADD CONSTRAINT "account_ops_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_entities" ADD CONSTRAINT "contact_entities_contact_id_contacts_contact_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("contact_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_entities" ADD CONSTRAINT "contact_entities_entity_id_entities_entity_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("entity_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iam_users" ADD CONSTRAINT "iam_users_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iam_users" ADD CONSTRAINT "iam_users_entity_id_entities_entity_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("entity_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_secrets" ADD CONSTRAINT "one_time_secrets_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_secrets" ADD CONSTRAINT "one_time_secrets_iam_user_id_iam_users_iam_user_id_fk" FOREIGN KEY ("iam_user_id") REFERENCES "public"."iam_users"("iam_user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_username_idx" ON "accounts" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_domain_uq" ON "accounts" USING btree ("account_domain");--> statement-breakpoint
CREATE INDEX "api_log_account_time_idx" ON "api_log" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "contacts_account_idx" ON "contacts" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entities_account_name_uq" ON "entities" USING btree ("account_id","entity_name");--> statement-breakpoint
CREATE UNIQUE INDEX "iam_users_account_username_uq" ON "iam_users" USING btree ("account_id","username");--> statement-breakpoint
CREATE INDEX "iam_users_username_idx" ON "iam_users" USING btree ("username");--> statement-breakpoint
CREATE INDEX "login_failures_username_idx" ON "login_failures" USING btree ("username","created_at");--> statement-breakpoint
CREATE INDEX "one_time_secrets_hash_idx" ON "one_time_secrets" USING btree ("secret_hash");