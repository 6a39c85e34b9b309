import type { Room } from "../../http/room.js";
import { totpAdminRoutes } from "./admin.js";
import { mfaArea } from "./openapi.js";
import { totpRoutes } from "./routes.js";

/** The second factor (TOTP devices and recovery codes): the room's declaration (src/http/room.ts). */
export const totpRoom: Room = {
  id: "totp",
  routes: totpRoutes,
  adminRoutes: totpAdminRoutes,
  openapi: mfaArea,
};
