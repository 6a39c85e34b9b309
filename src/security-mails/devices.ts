import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import type { SessionOpened } from "../core/session-opened.js";
import { notifyOutbox, queueMail } from "../core/mail-queue.js";
import { afterCommit } from "../store/after-commit.js";
import * as people from "../store/people.js";
import { insertToken } from "../store/one-time-tokens.js";
import { findLocaleByEmail } from "../store/person-locales.js";
import { describeInstant } from "../words/durations.js";
import type { Words } from "../words/words.js";
import { createSecretToken, hashToken } from "../util/random.js";
import "./tables.js";

/** How long "this wasn't me" works. */
export const NOT_ME_LIFETIME_MS = 7 * 86_400_000;

/** The network of an address: IPv4 by /24, IPv6 by /48 (a home or office, not one phone's address of the hour). */
export function networkOf(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return "";
  let a = ipaddr.parse(ip);
  if (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return a.kind() === "ipv4" ? `${a.toByteArray().slice(0, 3).join(".")}.0/24` : `${(a as ipaddr.IPv6).toNormalizedString().split(":").slice(0, 3).join(":")}::/48`;
}

/** A device and network, as a hash: what known_devices keeps (no address, no User-Agent in the clear). */
export const deviceKey = (client: { ip?: string; userAgent?: string }) => createHash("sha256").update(`${client.userAgent ?? ""}\n${networkOf(client.ip)}`).digest("hex");

/** "Firefox on Linux" from a User-Agent, in the person's words; "an unknown browser" when it says nothing we know. */
export function describeBrowser(ua: string | undefined, w: Words): string {
  const u = ua ?? "";
  const browser = /Edg\//.test(u) ? "Edge" : /OPR\//.test(u) ? "Opera" : /Firefox\//.test(u) ? "Firefox" : /Chrome\//.test(u) ? "Chrome" : /Safari\//.test(u) ? "Safari" : undefined;
  const os = /iPhone|iPad/.test(u) ? "iOS" : /Android/.test(u) ? "Android" : /Windows/.test(u) ? "Windows" : /Mac OS X|Macintosh/.test(u) ? "macOS" : /Linux/.test(u) ? "Linux" : undefined;
  if (!browser) return os ? w.t("secMail.aBrowserOn", { os }) : w.t("secMail.unknownBrowser");
  return os ? w.t("secMail.browserOn", { browser, os }) : browser;
}

/**
 * The hook (Room.sessionOpened): remembers the device and network of every session a request
 * opened (with the mail off too, so switching it on knows them); one never seen for the person
 * mails their verified addresses (--new-sign-in-mail), with a "this wasn't me"
 * link, unless it is their first (nothing known yet: a sign-up, or the first sign-in since this
 * was switched on). A device is mailed about once: from then on it is known (so never more than
 * once a day).
 */
export const rememberDevice: SessionOpened = async (tx, ctx, s) => {
  if (!s.client) return;
  const device = deviceKey(s.client);
  const known = await tx.selectFrom("known_devices").select(["device", "mailed_at"]).where("person_id", "=", s.personId).execute();
  const mine = known.find((k) => k.device === device);
  if (mine) {
    await tx.updateTable("known_devices").set({ last_seen: s.now }).where("person_id", "=", s.personId).where("device", "=", device).execute();
    return;
  }
  const mail = known.length > 0 && ctx.config.newSignInMail;
  await tx.insertInto("known_devices").values({ person_id: s.personId, device, first_seen: s.now, last_seen: s.now, mailed_at: mail ? s.now : null }).execute();
  if (!mail) return;
  const to = [...new Set((await people.findVerifiedAddresses(tx, s.personId)).map((a) => a.email))];
  if (to.length === 0) return;
  const token = createSecretToken();
  await insertToken(tx, { token_hash: hashToken(token), purpose: "not_me", user_id: s.personId, email: to[0], created_at: s.now, expires_at: s.now + NOT_ME_LIFETIME_MS });
  const link = `${ctx.config.hostedPages ? ctx.config.publicUrl : ctx.config.websiteUrl}${ctx.config.websiteBasePath}/not-me?token=${encodeURIComponent(token)}`;
  for (const address of to) {
    const w = ctx.words.of(await findLocaleByEmail(tx, address));
    const details = w.t("secMail.details", { when: describeInstant(s.now, w.locale), device: describeBrowser(s.client.userAgent, w) });
    await queueMail(tx, ctx, { kind: "new_sign_in", to: address, vars: { link, details, expiresAt: s.now + NOT_ME_LIFETIME_MS, validForMs: NOT_ME_LIFETIME_MS } });
  }
  afterCommit(tx, () => notifyOutbox(ctx));
};
