-- Hand-written (issue 13): the shared read cache's epoch (platform/lib/auth.ts). Every write on
-- any instance calls nextval after it commits; each call reads last_value with its token.
CREATE SEQUENCE IF NOT EXISTS "cache_epoch";
