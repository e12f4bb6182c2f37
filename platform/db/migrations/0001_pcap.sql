CREATE TABLE "pcap_analyses" (
	"pcap_file_key" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"pcap_file_name" text NOT NULL,
	"object_etag" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pcap_files" (
	"pcap_file_key" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"iam_user_id" text,
	"pcap_file_name" text NOT NULL,
	"size" bigint,
	"upload_started_at" timestamp with time zone,
	"uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pcap_analyses" ADD CONSTRAINT "pcap_analyses_pcap_file_key_pcap_files_pcap_file_key_fk" FOREIGN KEY ("pcap_file_key") REFERENCES "public"."pcap_files"("pcap_file_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pcap_analyses" ADD CONSTRAINT "pcap_analyses_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD CONSTRAINT "pcap_files_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD CONSTRAINT "pcap_files_iam_user_id_iam_users_iam_user_id_fk" FOREIGN KEY ("iam_user_id") REFERENCES "public"."iam_users"("iam_user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pcap_analyses_account_idx" ON "pcap_analyses" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "pcap_files_account_idx" ON "pcap_files" USING btree ("account_id","created_at");