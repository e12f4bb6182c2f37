-- One running activation test per device (platform/domain/device-tests.ts). Concurrent starts could
-- each insert one before: all but the newest running test of a device end as failed first.
UPDATE "device_tests" AS t SET "status" = 'failed', "result" = 'fail', "finished_at" = now()
WHERE t."status" = 'running' AND EXISTS (
  SELECT 1 FROM "device_tests" AS n
  WHERE n."device_id" = t."device_id" AND n."status" = 'running'
    AND (n."started_at", n."sse_id") > (t."started_at", t."sse_id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "device_tests_one_running_uq" ON "device_tests" USING btree ("device_id") WHERE status = 'running';
