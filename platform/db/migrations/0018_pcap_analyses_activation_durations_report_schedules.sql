CREATE TABLE "report_deliveries" (
	"report_id" text NOT NULL,
	"recipient" text NOT NULL,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_deliveries_report_id_recipient_pk" PRIMARY KEY("report_id","recipient")
);
--> statement-breakpoint
CREATE TABLE "report_history" (
	"report_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"kind" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"period_label" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"requested_by" text,
	"summary" jsonb,
	"devices" jsonb,
	"pdf" "bytea",
	"csv" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"made_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_recipients" (
	"account_id" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"link_sent_at" timestamp with time zone,
	"link_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_recipients_account_id_email_pk" PRIMARY KEY("account_id","email")
);
--> statement-breakpoint
CREATE TABLE "report_schedules" (
	"schedule_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"entity_id" text,
	"entity_name" text,
	"content" jsonb NOT NULL,
	"cadence" text NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"hour" integer DEFAULT 6 NOT NULL,
	"recipients" jsonb NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"active_since" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_tests" ADD COLUMN "performance_s" integer;--> statement-breakpoint
ALTER TABLE "device_tests" ADD COLUMN "configuration_speed" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_tests" ADD COLUMN "performance_speed" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_state" text;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_job_id" text;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_failure_status" integer;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_failure" text;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD CONSTRAINT "report_deliveries_report_id_report_history_report_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."report_history"("report_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_history" ADD CONSTRAINT "report_history_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_history" ADD CONSTRAINT "report_history_schedule_id_report_schedules_schedule_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("schedule_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_recipients" ADD CONSTRAINT "report_recipients_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_history_schedule_idx" ON "report_history" USING btree ("schedule_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_history_period_uq" ON "report_history" USING btree ("schedule_id","period_start") WHERE kind = 'scheduled';--> statement-breakpoint
CREATE INDEX "report_recipients_token_idx" ON "report_recipients" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "report_schedules_account_idx" ON "report_schedules" USING btree ("account_id","name","schedule_id");