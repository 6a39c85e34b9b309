import type { Room } from "../kernel/room.js";
import { adminsCommands } from "./accounts/commands.js";
import { DASHBOARD_PATH } from "./kit.js";
import { lazy } from "../kernel/lazy.js";

/**
 * The admin dashboard under /admin, mounted before CORS beside the admin API, and `authsvc admins` for
 * its accounts. Its pages and handlers load on the first request under /admin (docs/performance.md, "Memory").
 */
export const dashboardRoom: Room = { id: "dashboard", mount: lazy(() => import("./mount.js").then((m) => m.createDashboardHandler)), mountPath: DASHBOARD_PATH, commands: [adminsCommands] };
