-- Hand-written (issue 13, /histories): the change log's username filter reads this index (the
-- username shown is the IAM user's when one acted, else the account's), and api_log_counts holds
-- each account's number of log rows, kept by statement triggers with transition tables (one
-- upsert per statement and account, however many rows), so an unfiltered page's total is read,
-- not counted over a million rows.
CREATE INDEX "api_log_account_username_idx" ON "api_log" USING btree ("account_id", lower(coalesce("iam_user_username", "account_username")), "created_at", "id");--> statement-breakpoint
INSERT INTO "api_log_counts" ("account_id", "n") SELECT "account_id", count(*) FROM "api_log" GROUP BY "account_id";--> statement-breakpoint
CREATE FUNCTION api_log_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO api_log_counts AS c (account_id, n)
  SELECT account_id, count(*) FROM new_rows GROUP BY account_id
  ON CONFLICT (account_id) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION api_log_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_log_counts c SET n = c.n - d.cnt
  FROM (SELECT account_id, count(*) AS cnt FROM old_rows GROUP BY account_id) d
  WHERE c.account_id = d.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER api_log_count_insert AFTER INSERT ON api_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION api_log_count_insert();--> statement-breakpoint
CREATE TRIGGER api_log_count_delete AFTER DELETE ON api_log REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION api_log_count_delete();
