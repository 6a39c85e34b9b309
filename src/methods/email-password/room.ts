import type { Room } from "../../http/room.js";
import { passwordUserCreation, resetPasswordCommand } from "./commands.js";
import { emailPasswordAdminRoutes, passwordUserCreator } from "./admin.js";
import { emailPasswordAdminArea, emailPasswordArea } from "./openapi.js";
import { emailPasswordRoutes } from "./routes.js";
import { passwordLogins } from "./logins.js";
import { lazyMigrationChecks, lazyMigrationSettings } from "./lazy-settings.js";
import { emailPasswordMail } from "./mail.js";

/** Sign-in with an email address and a password: the room's declaration (src/http/room.ts). */
export const emailPasswordRoom: Room = {
  id: "emailpassword",
  mail: emailPasswordMail,
  logins: passwordLogins,
  settings: [lazyMigrationSettings],
  settingsChecks: lazyMigrationChecks,
  routes: emailPasswordRoutes,
  adminRoutes: emailPasswordAdminRoutes,
  adminUserCreator: passwordUserCreator,
  openapi: emailPasswordArea,
  adminOpenapi: emailPasswordAdminArea,
  describe: () => ({ answer: { emailPassword: { enabled: true } }, firstFactors: ["emailpassword"] }),
  commands: [resetPasswordCommand],
  userCreation: passwordUserCreation,
};
