import { kernelAdminRoutes } from "../http/admin/routes.js";
import { adminArea, healthArea, keysArea, sessionArea } from "../http/openapi/document.js";
import { kernelPageRoutes } from "../http/pages/routes.js";
import type { Room } from "./room.js";
import { kernelWords } from "../words/kernel/index.js";
import { kernelRoutes } from "../http/routes.js";
import { sessionWays } from "../core/session-ways.js";

/**
 * The kernel's own slices of the API, declared like a room's so the composition root lists them
 * in the same list (src/rooms.ts), in the order the OpenAPI document shows its areas.
 */
export const kernel = {
  /** Sessions, email verification, /loginmethods, keys, health: the kernel's routes. */
  sessions: { id: "sessions", routes: kernelRoutes, openapi: sessionArea, settingWords: { limitMailIp: "email verification", limitTokenIp: "email verification" }, waysIn: [sessionWays] },
  keys: { id: "keys", openapi: keysArea },
  health: { id: "health", openapi: healthArea },
  /** Users, sessions and links under /admin/v1. */
  admin: { id: "admin", adminRoutes: kernelAdminRoutes, adminOpenapi: adminArea },
  /** Hosted pages (sign-in, verify, reset …) and the development pages. */
  pages: { id: "pages", pages: kernelPageRoutes, words: kernelWords },
} satisfies Record<string, Room>;
