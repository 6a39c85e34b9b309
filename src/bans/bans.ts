import { performance } from "node:perf_hooks";
import type { CoreContext } from "../core/context.js";
import { notifyOutbox, queueMail } from "../core/mail-queue.js";
import type { PersonGate } from "../core/person-gates.js";
import { countEnded, endWaysIn, type EndedWaysIn } from "../core/ways-in.js";
import { afterCommit } from "../store/after-commit.js";
import { insertEvent } from "../store/events.js";
import * as people from "../store/people.js";
import { findLocaleByEmail } from "../store/person-locales.js";
import { describeInstant } from "../words/durations.js";
import type { Words } from "../words/words.js";
import * as repo from "./store.js";

/**
 * Bans (docs/security.md, "Bans"): the operator shuts a person out, for good or until a time, with
 * a reason. The ban and the end of every way in (core/ways-in.ts) commit in one transaction; from
 * then on every sign-in method answers its generic refusal (the person gate below, read in the
 * sign-in's transaction), and a live access token is refused at its next use by authsvc.
 */

declare module "../core/context.js" {
  interface RoomState {
    /** Who is banned now, as this process last read it (the gate's memory of person_bans). */
    bans: BanMemory;
  }
}

/** The person gate's memory: every ban in force, read at most once a second (real time), forgotten by this process's own changes. */
export interface BanMemory { until: Map<string, number | null>; readAt: number; reading?: Promise<void>; changes: number }

/** How long the memory is trusted: a ban made by another process (the CLI, another instance) reaches this one within it. */
export const BAN_MEMORY_MS = 1000;

export const newBanMemory = (): BanMemory => ({ until: new Map(), readAt: -Infinity, changes: 0 });

export interface Ban { userId: string; reason: string | null; until: number | null; since: number; source: string }

const viewOf = (r: repo.BanRow): Ban => ({ userId: r.person_id, reason: r.reason, until: r.until, since: r.created_at, source: r.source });

/** The person's ban in force now; undefined when not banned, null when no such user. */
export async function getBan(ctx: CoreContext, userId: string): Promise<Ban | undefined | null> {
  const personId = await people.findPersonId(ctx.store.db, userId);
  if (personId === undefined) return null;
  const r = await repo.findLiveBan(ctx.store.db, personId, ctx.clock.now());
  return r && viewOf(r);
}

export interface BanInput { reason?: string; until?: number; mail?: boolean; source: string }

/**
 * Bans the person `userId` names (any of their logins), in one transaction: the ban (replacing an
 * earlier one), every way in ended, the `user.banned` event and, with `mail`, the notice to their
 * verified addresses. Undefined when there is no such user.
 */
export async function banPerson(ctx: CoreContext, userId: string, input: BanInput): Promise<{ ban: Ban; ended: EndedWaysIn; mailed: number } | undefined> {
  const now = ctx.clock.now();
  const r = await ctx.store.writeTx(async (tx) => {
    const personId = await people.findPersonId(tx, userId);
    if (personId === undefined) return undefined;
    const row: repo.BanRow = { person_id: personId, reason: input.reason ?? null, until: input.until ?? null, created_at: now, source: input.source };
    await repo.putBan(tx, row);
    const ended = await endWaysIn(tx, ctx, { userId: personId, reason: "banned", source: input.source });
    await insertEvent(tx, { at: now, type: "user.banned", userId: personId, data: { reason: row.reason, until: row.until, endedWaysIn: countEnded(ended), source: input.source } });
    let mailed = 0;
    if (input.mail) {
      const to = [...new Set((await people.findVerifiedAddresses(tx, personId)).map((a) => a.email))];
      for (const address of to) {
        const w = ctx.words.of(await findLocaleByEmail(tx, address));
        await queueMail(tx, ctx, { kind: "account_banned", to: address, vars: { link: ctx.config.websiteUrl, details: describeBanIn(w, row) } });
      }
      mailed = to.length;
      if (mailed > 0) afterCommit(tx, () => notifyOutbox(ctx));
    }
    afterCommit(tx, () => forget(ctx));
    return { ban: viewOf(row), ended, mailed };
  });
  return r;
}

/** Lifts the person's ban: `lifted` false when none was in force. Undefined when there is no such user. */
export async function unbanPerson(ctx: CoreContext, userId: string, source: string): Promise<{ userId: string; lifted: boolean } | undefined> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const personId = await people.findPersonId(tx, userId);
    if (personId === undefined) return undefined;
    const lifted = await repo.deleteBan(tx, personId, now);
    if (lifted) await insertEvent(tx, { at: now, type: "user.unbanned", userId: personId, data: { source } });
    afterCommit(tx, () => forget(ctx));
    return { userId: personId, lifted };
  });
}

/** "until 31 Dec 2026, 09:00 UTC (reason: spam)" or "until further notice". */
export function describeBan(b: { until: number | null; reason: string | null }): string {
  const when = b.until === null ? "until further notice" : `until ${new Date(b.until).toUTCString().replace(/:\d\d GMT$/, " UTC")}`;
  return b.reason ? `${when} (reason: ${b.reason})` : when;
}

/** describeBan in a person's words, for the mail ("bis auf Weiteres (Grund: Spam)"); the reason is the operator's, as written. */
export function describeBanIn(w: Words, b: { until: number | null; reason: string | null }): string {
  const when = b.until === null ? w.t("bans.mail.untilFurtherNotice") : w.t("bans.mail.until", { until: describeInstant(b.until, w.locale) });
  return b.reason ? w.t("bans.mail.withReason", { when, reason: b.reason }) : when;
}

/** This process changed a ban: read them all again at the next use of a session. */
function forget(ctx: CoreContext): void {
  ctx.bans.readAt = -Infinity;
  ctx.bans.changes++;
}

async function readBans(ctx: CoreContext): Promise<void> {
  const m = ctx.bans;
  m.reading ??= (async () => {
    try {
      const startedAt = performance.now();
      const changes = m.changes;
      const rows = await repo.listLiveBans(ctx.store.db, ctx.clock.now());
      m.until = new Map(rows.map((r) => [r.person_id, r.until]));
      // A change of this process's during the read: the next use reads again.
      if (m.changes === changes) m.readAt = startedAt;
    } finally {
      m.reading = undefined;
    }
  })();
  await m.reading;
}

const bannedIn = (m: BanMemory, personId: string, now: number) => {
  if (!m.until.has(personId)) return false;
  const until = m.until.get(personId)!;
  return until === null || until > now;
};

/** The gate: a banned person may not sign in (read in the sign-in's transaction) nor use a session (from memory). */
export const banGate: PersonGate = {
  refusesSignIn: async (db, _ctx, personId, now) => (await repo.findLiveBan(db, personId, now)) !== undefined,
  refusesSession(ctx, personId, now) {
    const m = ctx.bans;
    if (performance.now() - m.readAt < BAN_MEMORY_MS) return bannedIn(m, personId, now);
    return readBans(ctx).then(() => bannedIn(m, personId, now));
  },
};
