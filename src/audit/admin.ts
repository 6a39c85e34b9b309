import { defineEventHandler } from "h3";
import { AuthError } from "../core/errors.js";
import type { AdminRoute } from "../http/admin/route.js";
import { queryParam } from "../http/admin/input.js";
import type { PersonPagePart, PersonPanel } from "../http/person-panels.js";
import { listAudit, type AuditEntry } from "./audit.js";
import { parseMoment } from "./time-input.js";

/** GET /admin/v1/audit: a page of the audit log, newest first, filtered (docs/security.md, "Audit log"). */
export const auditAdminRoutes: readonly AdminRoute[] = [
  {
    method: "GET", path: "/audit", handler: (deps) => defineEventHandler(async (event) => {
      const now = deps.ctx.clock.now();
      const limit = queryParam(event, "limit");
      if (limit !== undefined && !/^\d{1,4}$/.test(limit)) throw new AuthError("BAD_INPUT", "limit must be a whole number");
      return listAudit(deps.ctx, {
        userId: queryParam(event, "userId"), actor: queryParam(event, "actor"), action: queryParam(event, "action"),
        since: parseMoment(queryParam(event, "since"), now, "since"), until: parseMoment(queryParam(event, "until"), now, "until"),
        limit: limit === undefined ? undefined : Number(limit), cursor: queryParam(event, "cursor"),
      });
    }),
  },
];

/** How many entries the person page shows. */
const SHOWN = 20;

const auditPanel: PersonPanel<AuditEntry[]> = {
  id: "audit",
  title: "Audit log",
  place: "after-locks",
  load: async (ctx, person) => (await listAudit(ctx, { userId: person.id, limit: SHOWN })).entries,
  render: (entries, k) => {
    if (entries.length === 0) return "<p>No entry yet.</p>";
    const rows = entries.map((e) => `<tr><th scope="row">${k.time(e.at)}</th><td class="mono">${k.escape(e.action)}</td><td class="mono">${k.escape(e.actor)}</td><td class="mono">${k.escape(e.ip ?? "")}</td><td>${k.escape((e.userAgent ?? "").slice(0, 80))}</td></tr>`);
    return `${k.table(`The last ${SHOWN} audit entries about this person`, ["When", "Action", "By", "IP", "Browser"], rows)}<p class="muted">All of them: <code>authsvc audit --user ${k.escape(entries[0].userId ?? "")}</code> or <code>GET /admin/v1/audit?userId=…</code>.</p>`;
  },
};

/** On the dashboard's person page: their latest audit entries. */
export const auditPersonPage: PersonPagePart = { panels: [auditPanel] };
