CREATE TABLE "account_cache_epochs" (
	"account_id" text PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL
);
