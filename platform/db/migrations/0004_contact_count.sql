ALTER TABLE "accounts" ADD COLUMN "contact_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: keep accounts.contact_count equal to the account's number of contacts. Statement
-- triggers with transition tables: one UPDATE per statement and account, however many rows.
UPDATE "accounts" a SET "contact_count" = n.cnt FROM (SELECT "account_id", count(*)::int AS cnt FROM "contacts" GROUP BY "account_id") n WHERE a."account_id" = n."account_id";--> statement-breakpoint
CREATE FUNCTION contacts_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts a SET contact_count = a.contact_count + n.cnt
  FROM (SELECT account_id, count(*)::int AS cnt FROM new_rows GROUP BY account_id) n
  WHERE a.account_id = n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION contacts_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts a SET contact_count = a.contact_count - n.cnt
  FROM (SELECT account_id, count(*)::int AS cnt FROM old_rows GROUP BY account_id) n
  WHERE a.account_id = n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_count_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contacts_count_insert();--> statement-breakpoint
CREATE TRIGGER contacts_count_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contacts_count_delete();
