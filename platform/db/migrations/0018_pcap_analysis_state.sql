ALTER TABLE "pcap_files" ADD COLUMN "analysis_state" text;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_job_id" text;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_failure_status" integer;--> statement-breakpoint
ALTER TABLE "pcap_files" ADD COLUMN "analysis_failure" text;