CREATE TABLE "mail_rejections" (
	"job_id" text PRIMARY KEY NOT NULL,
	"account_id" text,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"answer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_rejections" ADD CONSTRAINT "mail_rejections_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_rejections_account_idx" ON "mail_rejections" USING btree ("account_id","created_at");