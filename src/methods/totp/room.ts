import type { Room } from "../../http/room.js";
import { secondFactorCommands } from "./commands.js";
import { totpAdminRoutes } from "./admin.js";
import { mfaArea, totpAdminArea } from "./openapi.js";
import { mfaPage, secondFactorPage } from "./pages.js";
import mfaJs from "./pages/mfa.js?raw";
import recoveryCodesJs from "./pages/recovery-codes.js?raw";
import secondFactorJs from "./pages/second-factor.js?raw";
import { totpRoutes } from "./routes.js";
import { mergeSecondFactors } from "./merge.js";
import { hostedPageRoutes } from "../../http/pages/route.js";
import { totpMail } from "./mail.js";

/** The second factor (TOTP devices and recovery codes): the room's declaration (src/http/room.ts). */
export const totpRoom: Room = {
  id: "totp",
  mail: totpMail,
  mergePerson: mergeSecondFactors,
  routes: totpRoutes,
  adminRoutes: totpAdminRoutes,
  openapi: mfaArea,
  adminOpenapi: totpAdminArea,
  pages: (c) => hostedPageRoutes(c, { "/mfa": mfaPage, "/second-factor": secondFactorPage }),
  assets: { "mfa.js": mfaJs, "recovery-codes.js": recoveryCodesJs, "second-factor.js": secondFactorJs },
  commands: [secondFactorCommands],
};
