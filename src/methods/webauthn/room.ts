import { enabledPart } from "../../http/openapi/types.js";
import { SIGN_IN_NOT_ALLOWED } from "./refusals.js";
import type { SignInMethod } from "../../kernel/room.js";
import { passkeyCommands } from "./commands.js";
import { webauthnAdminRoutes, webauthnPersonPage } from "./admin.js";
import { webauthnAdminArea, webauthnArea } from "./openapi.js";
import { passkeyAccountPage, passkeyRecoverPage, passkeySignIn, passkeysPage } from "./pages.js";
import passkeyListJs from "./pages/passkey-list.js?raw";
import passkeyRecoverJs from "./pages/passkey-recover.js?raw";
import passkeysJs from "./pages/passkeys.js?raw";
import passkeysCss from "./pages/passkeys.css?raw";
import { webauthnRoutes } from "./routes.js";
import { checkRelyingParty, webauthnSettings } from "./settings.js";
import { passkeyLogins } from "./logins.js";
import { expiredOptions } from "./purge.js";
import { hostedPageRoutes } from "../../http/pages/route.js";
import { webauthnMail } from "./mail.js";
import { webauthnWords } from "./words/index.js";

/** Sign-in with a passkey (WebAuthn): the room's declaration (src/kernel/room.ts). */
export const webauthnRoom: SignInMethod = {
  id: "webauthn",
  factors: [{ id: "webauthn", amr: "hwk", refusal: { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_NOT_ALLOWED } }],
  events: {
    "webauthn.credential_added": { type: "user.passkey_added" },
    "webauthn.credential_removed": { type: "user.passkey_removed" },
    "webauthn.account_recovered": { type: "user.account_recovered", data: { method: "webauthn" } },
  },
  mail: webauthnMail,
  words: webauthnWords,
  logins: passkeyLogins,
  purge: [expiredOptions],
  settings: [webauthnSettings],
  settingsChecks: [checkRelyingParty],
  routes: webauthnRoutes,
  adminRoutes: webauthnAdminRoutes,
  personPage: webauthnPersonPage,
  openapi: webauthnArea,
  adminOpenapi: webauthnAdminArea,
  pages: (c) => hostedPageRoutes(c, { "/passkeys": passkeysPage, "/webauthn/recover": passkeyRecoverPage }),
  assets: { "passkey-list.js": passkeyListJs, "passkey-recover.js": passkeyRecoverJs, "passkeys.js": passkeysJs },
  styles: passkeysCss,
  signIn: passkeySignIn,
  accountPage: passkeyAccountPage,
  describe: () => ({ answer: { webauthn: { enabled: true } }, firstFactors: ["webauthn"] }),
  describeSchema: { fields: { webauthn: enabledPart() }, firstFactors: ["webauthn"] },
  commands: [passkeyCommands],
};
