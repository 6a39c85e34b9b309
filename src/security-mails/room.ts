import { staleKnownDevices } from "./purge.js";
import type { Room } from "../kernel/room.js";
import { hostedPageRoutes } from "../http/pages/route.js";
import { rememberDevice } from "./devices.js";
import { securityMail } from "./mail.js";
import { securityMailRoutes } from "./not-me.js";
import { securityMailsOpenapi } from "./openapi.js";
import notMeJs from "./pages/not-me.js?raw";
import { notMePage } from "./page.js";
import { securityMailSettings } from "./settings.js";
import { securityMailWords } from "./words/index.js";

/**
 * Security mails (docs/security.md, "Security mails"): a sign-in from a device and network not seen
 * for the person mails them, with a "this wasn't me" link that ends every way in and asks for a new
 * password. (A changed address already mails the old one: the account room's `email_changed`.)
 */
export const securityMailsRoom: Room = {
  id: "security-mails",
  settings: [securityMailSettings],
  sessionOpened: rememberDevice,
  mail: securityMail,
  words: securityMailWords,
  routes: securityMailRoutes,
  openapi: securityMailsOpenapi,
  assets: { "not-me.js": notMeJs },
  pages: (config) => hostedPageRoutes(config, { "/not-me": notMePage }),
  events: { "user.not_me": { type: "user.not_me" } },
  purge: [staleKnownDevices],
};
