import type { Room } from "../../kernel/room.js";
import { secondFactorCommands } from "./commands.js";
import { totpAdminRoutes, totpPersonPage } from "./admin.js";
import { mfaArea, totpAdminArea } from "./openapi.js";
import { mfaPage, secondFactorAccountPage, secondFactorPage } from "./pages.js";
import mfaJs from "./pages/mfa.js?raw";
import recoveryCodesJs from "./pages/recovery-codes.js?raw";
import secondFactorJs from "./pages/second-factor.js?raw";
import secondFactorCss from "./pages/second-factor.css?raw";
import { totpRoutes } from "./routes.js";
import { mergeSecondFactors } from "./merge.js";
import { totpImport } from "./import.js";
import { hostedPageRoutes } from "../../http/pages/route.js";
import { totpMail } from "./mail.js";
import { totpWords } from "./words/index.js";
import { totpDevices } from "./offer.js";

/** The second factor (TOTP devices and recovery codes): the room's declaration (src/kernel/room.ts). */
export const totpRoom: Room = {
  id: "totp",
  factors: [{ id: "totp", secondary: true, amr: "otp" }],
  // How `--mfa` names the second factor it makes optional or required.
  settingWords: { mfa: "TOTP" },
  // Its webhooks: the second factor turned on or off, reset by an operator, recovery codes.
  events: {
    "mfa.totp_enabled": { type: "user.second_factor_changed", data: { change: "added", factor: "totp" } },
    "mfa.totp_disabled": { type: "user.second_factor_changed", data: { change: "removed", factor: "totp" } },
    "mfa.reset": { type: "user.second_factor_changed", data: { change: "reset" } },
    "mfa.recovery_code_used": { type: "user.second_factor_changed", data: { change: "recovery_code_used" } },
    "mfa.recovery_codes_regenerated": { type: "user.second_factor_changed", data: { change: "recovery_codes_regenerated" } },
  },
  mail: totpMail,
  words: totpWords,
  mergePerson: mergeSecondFactors,
  importer: totpImport,
  routes: totpRoutes,
  adminRoutes: totpAdminRoutes,
  personPage: totpPersonPage,
  openapi: mfaArea,
  adminOpenapi: totpAdminArea,
  pages: (c) => hostedPageRoutes(c, { "/mfa": mfaPage, "/second-factor": secondFactorPage }),
  assets: { "mfa.js": mfaJs, "recovery-codes.js": recoveryCodesJs, "second-factor.js": secondFactorJs },
  styles: secondFactorCss,
  accountPage: secondFactorAccountPage,
  commands: [secondFactorCommands],
  // The devices for a caller that keeps its own sessions (the CDI), by the FDI's rules and limits.
  accounts: { totpDevices },
};
