import type { Room } from "../kernel/room.js";
import { bansPersonPage, banAdminRoutes } from "./admin.js";
import { banGate, newBanMemory } from "./bans.js";
import { banCommand, unbanCommand } from "./commands.js";
import { bansMail } from "./mail.js";
import { bansAdminArea } from "./openapi.js";
import { expiredBans, mergeBans } from "./purge.js";
import { banWords } from "./words/index.js";

/**
 * Bans (docs/security.md, "Bans"): the operator shuts a person out from the CLI, the admin API or
 * the dashboard, for good or until a time; every way in ends at once, every sign-in method answers
 * its generic refusal, a live access token is refused at its next use, and a webhook tells the app.
 */
export const bansRoom: Room = {
  id: "bans",
  init: () => ({ bans: newBanMemory() }),
  personGate: banGate,
  events: { "user.banned": { type: "user.banned" }, "user.unbanned": { type: "user.unbanned" } },
  adminRoutes: banAdminRoutes,
  adminOpenapi: bansAdminArea,
  personPage: bansPersonPage,
  mail: bansMail,
  words: banWords,
  purge: [expiredBans],
  mergePerson: mergeBans,
  commands: [banCommand, unbanCommand],
};
