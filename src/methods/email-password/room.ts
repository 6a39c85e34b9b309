import { enabledPart } from "../../http/openapi/types.js";
import { SIGN_IN_NOT_ALLOWED } from "./refusals.js";
import type { SignInMethod } from "../../kernel/room.js";
import { passwordUserCreation, resetPasswordCommand } from "./commands.js";
import { emailPasswordAdminRoutes, passwordPersonPage, passwordUserCreator } from "./admin.js";
import { emailPasswordAdminArea, emailPasswordArea } from "./openapi.js";
import { emailPasswordRoutes } from "./routes.js";
import { passwordAccounts } from "./accounts.js";
import { passwordLogins } from "./logins.js";
import { passwordImport } from "./import.js";
import { lazyMigrationChecks, lazyMigrationSettings } from "./lazy-settings.js";
import { emailPasswordMail } from "./mail.js";
import { emailPasswordWords } from "./words/index.js";
import { passwordAccountPage, passwordSignIn, resetPasswordPage } from "./pages.js";
import accountPasswordJs from "./pages/account-password.js?raw";
import passwordSignInJs from "./pages/password-sign-in.js?raw";
import resetPasswordJs from "./pages/reset-password.js?raw";
import { hostedPageRoutes } from "../../http/pages/route.js";

/** Sign-in with an email address and a password: the room's declaration (src/kernel/room.ts). */
export const emailPasswordRoom: SignInMethod = {
  id: "emailpassword",
  factors: [{ id: "emailpassword", proves: "email", amr: "pwd", refusal: { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_NOT_ALLOWED } }],
  events: { "password_reset.completed": { type: "user.password_reset" } },
  mail: emailPasswordMail,
  words: emailPasswordWords,
  logins: passwordLogins,
  importer: passwordImport,
  // What other rooms (the CDI, an invitation's sign-up) may do with password accounts.
  accounts: { password: passwordAccounts },
  settings: [lazyMigrationSettings],
  // What the mail and token limits count of its requests.
  settingWords: { limitMailIp: "password reset", limitTokenIp: "password reset" },
  settingsChecks: lazyMigrationChecks,
  routes: emailPasswordRoutes,
  adminRoutes: emailPasswordAdminRoutes,
  personPage: passwordPersonPage,
  adminUserCreator: passwordUserCreator,
  openapi: emailPasswordArea,
  adminOpenapi: emailPasswordAdminArea,
  pages: (c) => hostedPageRoutes(c, { "/reset-password": resetPasswordPage }),
  assets: { "account-password.js": accountPasswordJs, "password-sign-in.js": passwordSignInJs, "reset-password.js": resetPasswordJs },
  signIn: passwordSignIn,
  accountPage: passwordAccountPage,
  describe: () => ({ answer: { emailPassword: { enabled: true } }, firstFactors: ["emailpassword"] }),
  describeSchema: { fields: { emailPassword: enabledPart() }, required: ["emailPassword"], firstFactors: ["emailpassword"] },
  commands: [resetPasswordCommand],
  userCreation: passwordUserCreation,
};
