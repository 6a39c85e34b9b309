import type { Room } from "../kernel/room.js";
import { auditAdminRoutes, auditPersonPage } from "./admin.js";
import { auditHook } from "./audit.js";
import { auditCommand } from "./commands.js";
import { auditAdminArea } from "./openapi.js";
import { oldAuditEntries } from "./purge.js";
import { auditSettings } from "./settings.js";

/**
 * The audit log (docs/security.md, "Audit log"): every security event, written in the event's own
 * transaction by an event hook, with who, whom, from where and when; `authsvc audit`,
 * GET /admin/v1/audit and the person page read it, and the purge keeps it for --audit-retention.
 */
export const auditRoom: Room = {
  id: "audit",
  settings: [auditSettings],
  eventHook: auditHook,
  adminRoutes: auditAdminRoutes,
  adminOpenapi: auditAdminArea,
  personPage: auditPersonPage,
  purge: [oldAuditEntries],
  commands: [auditCommand],
};
