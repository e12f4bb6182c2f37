ALTER TABLE "device_tests" ADD COLUMN "performance_s" integer;--> statement-breakpoint
ALTER TABLE "device_tests" ADD COLUMN "configuration_speed" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_tests" ADD COLUMN "performance_speed" double precision DEFAULT 1 NOT NULL;