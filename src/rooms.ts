import { accountRoom } from "./account/room.js";
import { auditRoom } from "./audit/room.js";
import { bansRoom } from "./bans/room.js";
import { cdiRoom } from "./cdi/room.js";
import { securityMailsRoom } from "./security-mails/room.js";
import { supportSessionsRoom } from "./support-sessions/room.js";
import { ConfigError, type Config } from "./config/types.js";
import type { Logger } from "./util/logger.js";
import { mergeCatalogues } from "./words/catalogue.js";
import { loadWordOverrides } from "./words/overrides.js";
import { createWords, type WordsTable } from "./words/words.js";
import { checkBackground } from "./core/background.js";
import { dashboardRoom } from "./dashboard/room.js";
import { assembleHttpTables } from "./kernel/http-tables.js";
import type { Room } from "./kernel/room.js";
import { kernel } from "./kernel/slices.js";
import { kernelMail } from "./mail/kernel-mail.js";
import { assembleMail } from "./mail/kinds.js";
import { metadataRoom } from "./metadata/room.js";
import { emailPasswordRoom } from "./methods/email-password/room.js";
import { passwordlessRoom } from "./methods/passwordless/room.js";
import { thirdPartyRoom } from "./methods/third-party/room.js";
import { totpRoom } from "./methods/totp/room.js";
import { webauthnRoom } from "./methods/webauthn/room.js";
import { organizationsRoom } from "./organizations/room.js";
import { protectionRoom } from "./protection/room.js";
import { oauthProviderRoom } from "./oauth-provider/room.js";
import { rolesRoom } from "./roles/room.js";
import { ssoRoom } from "./sso/room.js";
import { webhookEventTable } from "./webhooks/events.js";
import { createWebhooksRoom } from "./webhooks/room.js";

/**
 * Every room, and the kernel's own slices, in one list: the composition root (app.ts) and the
 * docs generators assemble the route tables, the OpenAPI document, /loginmethods, the claims and
 * the rooms' context state from it. The order is the order the OpenAPI document and
 * /loginmethods show them. A new sign-in method adds one line here (docs/architecture.md).
 * The webhooks room sits among them and publishes the events the others declare (Room.events).
 */
const beforeWebhooks: readonly Room[] = [
  emailPasswordRoom, kernel.sessions, thirdPartyRoom, passwordlessRoom, webauthnRoom, totpRoom, kernel.keys, kernel.health,
  accountRoom, kernel.admin, rolesRoom, metadataRoom, organizationsRoom, ssoRoom, protectionRoom, bansRoom, auditRoom, securityMailsRoom, supportSessionsRoom,
];
const afterWebhooks: readonly Room[] = [oauthProviderRoom, cdiRoom, kernel.pages, dashboardRoom];

/** The events published as webhooks: the kernel's and every room's (webhooks/events.ts). */
export const webhookEvents = webhookEventTable([...beforeWebhooks, ...afterWebhooks].flatMap((r) => (r.events ? [r.events] : [])));

export const rooms: readonly Room[] = [...beforeWebhooks, createWebhooksRoom(webhookEvents), ...afterWebhooks];

/** The HTTP tables built from the list, once. */
export const tables = assembleHttpTables(rooms);

/** The mail table: the kernel's kinds and every room's, with their actions in one order. */
export const mail = assembleMail([...kernelMail, ...rooms.flatMap((r) => (r.mail ? [r.mail] : []))]);

/** The rooms' words (Room.words), merged: every sentence by id, per locale (words/catalogue.ts). */
export const catalogues = mergeCatalogues(rooms.flatMap((r) => (r.words ? [r.words] : [])));

/** The words layer for this configuration: the catalogues, the operator's overrides (--words-dir), the offered locales. */
export function wordsOf(config: Readonly<Config>, logger: Logger): WordsTable {
  let overrides;
  try { overrides = loadWordOverrides(config.wordsDir, catalogues.en ?? {}); } catch (err) { throw new ConfigError(`invalid value for wordsDir (--words-dir): ${(err as Error).message}`); }
  return createWords({ catalogues, overrides, offered: config.locales, defaultLocale: config.defaultLocale, logger });
}

/** The rooms' background work (Room.background), which app.ts runs and a cluster's HTTP worker forwards kicks of. */
export const background = checkBackground(rooms.flatMap((r) => (r.background ? [r.background] : [])));

/** What the rooms add to every SMTP transport (Room.smtpOptions: DKIM signing), for this configuration. */
export function smtpOptionsOf(config: Readonly<Config>): Record<string, unknown> {
  return Object.assign({}, ...rooms.map((r) => r.smtpOptions?.(config) ?? {})) as Record<string, unknown>;
}
