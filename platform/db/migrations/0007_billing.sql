CREATE TABLE "billing_methods" (
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"customer_identifier" text NOT NULL,
	"subscription_id" text,
	"subscription_status" text,
	"payment_method_id" text,
	"preferred" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_methods_account_id_provider_pk" PRIMARY KEY("account_id","provider")
);
--> statement-breakpoint
CREATE TABLE "stripe_checkouts" (
	"session_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account_id" text,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_methods" ADD CONSTRAINT "billing_methods_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_checkouts" ADD CONSTRAINT "stripe_checkouts_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_methods_customer_idx" ON "billing_methods" USING btree ("customer_identifier");