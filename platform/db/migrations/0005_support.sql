CREATE TABLE "api_log_counts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_correspondence" (
	"correspondence_id" text PRIMARY KEY NOT NULL,
	"ticket_id" text NOT NULL,
	"correspondence" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"ticket_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"priority" text NOT NULL,
	"state" text DEFAULT 'Open' NOT NULL,
	"device_id" text,
	"entity_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "api_log_account_time_idx";--> statement-breakpoint
ALTER TABLE "ticket_correspondence" ADD CONSTRAINT "ticket_correspondence_ticket_id_tickets_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("ticket_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_ticket_id_tickets_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("ticket_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_correspondence_ticket_idx" ON "ticket_correspondence" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_events_undelivered_idx" ON "ticket_events" USING btree ("created_at") WHERE delivered_at is null;--> statement-breakpoint
CREATE INDEX "ticket_events_ticket_idx" ON "ticket_events" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_account_created_idx" ON "tickets" USING btree ("account_id","created_at","ticket_id");--> statement-breakpoint
CREATE INDEX "api_log_account_path_idx" ON "api_log" USING btree ("account_id","url_path","created_at","id");--> statement-breakpoint
CREATE INDEX "api_log_account_time_idx" ON "api_log" USING btree ("account_id","created_at","id");