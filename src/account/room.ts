import type { Room } from "../kernel/room.js";
import { accountArea } from "./openapi.js";
import accountJs from "./account-page.js?raw";
import { accountPage } from "./page.js";
import { accountRoutes } from "./routes.js";
import { accountSettings } from "./settings.js";
import { cancelDeletionOnJoin } from "./deletion.js";
import { hostedPageRoutes } from "../http/pages/route.js";
import { accountMail } from "./mail.js";
import { accountWords } from "./words/index.js";

/** The self-service account (email, password, sessions, deletion) and its hosted page. */
export const accountRoom: Room = {
  id: "account",
  events: {
    "user.deletion_scheduled": { type: "user.deletion_scheduled" },
    "user.deletion_cancelled": { type: "user.deletion_cancelled" },
  },
  mail: accountMail,
  words: accountWords,
  mergePerson: cancelDeletionOnJoin,
  settings: [accountSettings],
  routes: accountRoutes,
  openapi: accountArea,
  assets: { "account.js": accountJs },
  pages: (c) => hostedPageRoutes(c, { "/account": accountPage }),
};
