import type { Room } from "../http/room.js";
import { DASHBOARD_PATH } from "./kit.js";
import { createDashboardHandler } from "./mount.js";

/** The admin dashboard under /admin, mounted before CORS beside the admin API. */
export const dashboardRoom: Room = { id: "dashboard", mount: createDashboardHandler, mountPath: DASHBOARD_PATH };
