import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi as a } from "../http/openapi/admin.js";
import { json, ref } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";
import { MAX_AUDIT_PAGE } from "./audit.js";

const query = (name: string, description: string, schema: Record<string, unknown> = { type: "string" }) => ({ name, in: "query", required: false, schema, description });
const moment = "a time (2026-12-01, 2026-12-01T09:00:00Z), epoch milliseconds, or a duration ago (24h, 7d)";

/** The admin API's audit log (src/audit/admin.ts). */
export const auditAdminArea: OpenApiArea = {
  tag: { name: "audit", description: "Admin API: the audit log, every security event with who did it, whom it concerns, from where and when (kept for --audit-retention)" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/audit": {
      get: { ...a.op("adminListAudit", "A page of the audit log, newest first", {
        parameters: [
          query("userId", "only entries about this person"), query("actor", "only entries by this actor: user:<id>, admin:<id>, cli, admin-api, anonymous, system"),
          query("action", "only this action (an event type such as user.banned), or a prefix (mfa. or mfa*)"),
          query("since", `only entries from: ${moment}`), query("until", `only entries before: ${moment}`),
          query("limit", `at most this many (default 100, at most ${MAX_AUDIT_PAGE})`, { type: "integer", minimum: 1, maximum: MAX_AUDIT_PAGE }),
          query("cursor", "the `next` of the page before"),
        ],
        responses: { 200: json("entries, and `next` when older ones remain", a.object({ entries: { type: "array", items: ref("AuditEntry") }, next: { type: ["string", "null"] } })), ...a.errorsFor(400) },
      }), tags: ["audit"] },
    },
  },
  schemas: {
    AuditEntry: a.object({
      id: { type: "string" }, at: { type: "integer", description: "epoch milliseconds" },
      actor: { type: "string", description: "who did it: user:<id> (the person themselves), admin:<id> (a dashboard admin), cli, admin-api, anonymous (a request naming no account: a failed sign-in), system" },
      userId: { type: ["string", "null"], description: "whom it concerns" }, action: { type: "string", description: "the event's type (session.created is a sign-in, user.sign_in_failed its failure)" },
      ip: { type: ["string", "null"] }, userAgent: { type: ["string", "null"] }, details: { description: "the event's data" },
    }),
  },
};
