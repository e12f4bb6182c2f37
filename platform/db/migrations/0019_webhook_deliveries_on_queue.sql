DROP INDEX "ops_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "ops_deliveries" ADD COLUMN "job_id" text;--> statement-breakpoint
CREATE INDEX "ops_deliveries_unqueued_idx" ON "ops_deliveries" USING btree ("created_at") WHERE job_id is null and status in ('pending', 'sending');