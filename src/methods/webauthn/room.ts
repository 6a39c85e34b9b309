import type { Room } from "../../http/room.js";
import { webauthnAdminRoutes } from "./admin.js";
import { webauthnArea } from "./openapi.js";
import { webauthnRoutes } from "./routes.js";
import { checkRelyingParty, webauthnSettings } from "./settings.js";

/** Sign-in with a passkey (WebAuthn): the room's declaration (src/http/room.ts). */
export const webauthnRoom: Room = {
  id: "webauthn",
  settings: [webauthnSettings],
  settingsChecks: [checkRelyingParty],
  routes: webauthnRoutes,
  adminRoutes: webauthnAdminRoutes,
  openapi: webauthnArea,
  describe: () => ({ answer: { webauthn: { enabled: true } }, firstFactors: ["webauthn"] }),
};
