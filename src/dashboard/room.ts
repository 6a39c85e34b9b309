import type { Room } from "../kernel/room.js";
import { adminsCommands } from "./accounts/commands.js";
import { DASHBOARD_PATH } from "./kit.js";
import { createDashboardHandler } from "./mount.js";

/** The admin dashboard under /admin, mounted before CORS beside the admin API, and `authsvc admins` for its accounts. */
export const dashboardRoom: Room = { id: "dashboard", mount: createDashboardHandler, mountPath: DASHBOARD_PATH, commands: [adminsCommands] };
