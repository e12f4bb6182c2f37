// Moved to app/lib/api.server.ts, the one module for platform calls and their errors
// (docs/decisions/2026-11-23-hardening.md); kept so existing imports keep working.
export { detailMessages, safeReply, SECRET_FIELDS, splitDetail, upstreamReply } from "./api.server.ts";
