import { Command, Option } from "commander";
import { canonicalEmail } from "../core/emails.js";
import { viewCaughtMail as viewOf, type CaughtMailView } from "../mail/caught-mail-view.js";
import type { CaughtMailRow } from "../store/caught-mail.js";
import { mail } from "../rooms.js";
import { lastCaughtMailId, listCaughtMail, listLatestCaughtMail } from "../store/caught-mail.js";
import { openStore, type Store } from "../store/database.js";
import { isMigrated } from "../store/migrator.js";
import { parseDuration } from "../util/duration.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

const viewCaughtMail = (row: CaughtMailRow) => viewOf(mail, row);

/**
 * `authsvc tail-mail`: mail caught by the built-in catcher, read from the database (so it works
 * beside a running `serve`, on SQLite and PostgreSQL). Oldest first; --follow streams new mail;
 * --wait prints the token (or link) of the first matching mail that arrives after it started, or,
 * with --since, the newest matching mail caught that recently (so a script can trigger the mail
 * first and then ask for it, with no background process and no race). Without --wait, --since keeps
 * the listing to mail caught that recently and --print lists only that value, one line per mail.
 */
export function tailMailCommand(io: CliIO): Command {
  // The codes the rooms' mails carry, as they call them (MailAction.code).
  const codes = mail.actions.flatMap((a) => (a.code ? [a.code] : [])).join(", or ");
  const cmd = new Command("tail-mail")
    .description("print mail caught by the built-in SMTP catcher (development)")
    .option("--to <address>", "only mail to this address")
    .option("--follow", "keep printing new mail until interrupted")
    .option("--json", "one JSON object per line: to, subject, action, link, token, code, expiresAt, receivedAt")
    .option("--limit <n>", "how many of the newest caught messages to print first", "20")
    .option("--wait", "wait for the first matching NEW mail with a token, print its token and exit")
    .option("--timeout <seconds>", "with --wait: give up after this long (exit 1)", "60")
    .option("--since <duration>", "only mail caught this recently (e.g. 30s, 5m); with --wait: also accept such mail, newest first")
    .addOption(new Option("--print <what>", `print only this of each mail, one line each (with --wait: of the one mail; default token)${codes ? ` (code: ${codes})` : ""}`).choices(["token", "link", "code"]))
    .addOption(new Option("--action <action>", "only mail of this action").choices(mail.actions.map((a) => a.action)))
    .option("--poll <ms>", "how often to look for new mail", "250");
  addConfigOptions(cmd, "common");
  return cmd.action(async (flags) => {
    const limit = Number(flags.limit), timeout = Number(flags.timeout), poll = Number(flags.poll);
    if (!Number.isInteger(limit) || limit < 0) throw new CliError("--limit takes a whole number", 2);
    if (!(timeout > 0)) throw new CliError("--timeout takes a positive number of seconds", 2);
    if (!Number.isInteger(poll) || poll < 10) throw new CliError("--poll takes a whole number of milliseconds (at least 10)", 2);
    const sinceMs = flags.since === undefined ? undefined : parseDuration(flags.since);
    if (flags.since !== undefined && sinceMs === undefined) throw new CliError("--since takes a duration such as 30s, 5m or 1h", 2);
    const to: string | undefined = flags.to === undefined ? undefined : canonicalEmail(flags.to);
    const matches = (v: CaughtMailView) => !flags.action || v.action === flags.action;
    const what: "token" | "link" | "code" = flags.print ?? "token";
    const valueOf = (v: CaughtMailView) => (what === "link" ? v.link : what === "code" ? v.code : v.token);
    // --print without --wait: just that value of each mail that has one (a script's loop reads lines).
    const print = (v: CaughtMailView) => {
      if (flags.print === undefined) return io.out(flags.json ? JSON.stringify(jsonOf(v)) : block(v));
      const value = valueOf(v);
      if (value) io.out(value);
    };

    // Read-only on purpose: it runs beside `serve` on the same database and must never take the
    // write lock (no migrations here; `serve` or `authsvc migrate` applies them).
    const { config } = configFromFlags(flags, io);
    let store: Store;
    try {
      store = openStore({ url: config.database, sqliteSynchronous: config.sqliteSynchronous, mustExist: true });
    } catch (err) {
      throw new CliError(`cannot open ${maskUrlPassword(config.database)}: ${(err as Error).message}`);
    }
    try {
      const migrated = await isMigrated(store).catch((err: Error) => { throw new CliError(`cannot read ${store.description}: ${err.message}`); });
      if (!migrated) throw new CliError(`${store.description} has no up-to-date schema yet; run \`authsvc migrate\` or start \`authsvc serve\` first`);
      const db = store.db;
      const stop = stopper(io);
      try {
        if (flags.wait) {
          let cursor = await lastCaughtMailId(db);
          if (sinceMs !== undefined) {
            const recent = (await listCaughtMail(db, { since: Date.now() - sinceMs, to })).map(viewCaughtMail).filter((v) => matches(v) && valueOf(v));
            if (recent.length) return io.out(valueOf(recent[recent.length - 1])!);
          }
          io.err(`waiting for new mail${to ? ` to ${to}` : ""} (timeout ${timeout}s)…`);
          const deadline = Date.now() + timeout * 1000;
          while (!stop.stopped) {
            for (const row of await listCaughtMail(db, { afterId: cursor, to })) {
              cursor = Math.max(cursor, Number(row.id));
              const v = viewCaughtMail(row);
              const value = valueOf(v);
              if (matches(v) && value) return io.out(value);
            }
            const left = deadline - Date.now();
            if (left <= 0) break;
            await stop.sleep(Math.min(poll, left));
          }
          throw new CliError(stop.stopped ? "interrupted" : `no matching mail within ${timeout}s`);
        }
        let cursor = 0;
        const since = sinceMs === undefined ? undefined : Date.now() - sinceMs;
        for (const row of await listLatestCaughtMail(db, { to, limit })) {
          cursor = Number(row.id);
          const v = viewCaughtMail(row);
          if (matches(v) && (since === undefined || Number(row.received_at) >= since)) print(v);
        }
        if (!flags.follow) return;
        cursor = Math.max(cursor, await lastCaughtMailId(db));
        if (!flags.json) io.err(`following new mail${to ? ` to ${to}` : ""}; press Ctrl-C to stop`);
        while (!stop.stopped) {
          for (const row of await listCaughtMail(db, { afterId: cursor, to })) {
            cursor = Math.max(cursor, Number(row.id));
            const v = viewCaughtMail(row);
            if (matches(v)) print(v);
          }
          await stop.sleep(poll);
        }
      } finally {
        stop.dispose();
      }
    } finally {
      await store.close();
    }
  });
}

function jsonOf(v: CaughtMailView) {
  return { to: v.to, subject: v.subject, action: v.action, link: v.link, token: v.token, code: v.code, expiresAt: v.expiresAt, receivedAt: v.receivedAt };
}

/** One readable block; the link and the token stand on lines of their own, for copy and paste. */
function block(v: CaughtMailView): string {
  const lines = [
    `── ${v.receivedAt} ${"─".repeat(40)}`,
    `to:      ${v.to}`,
    `subject: ${v.subject.replace(/[\x00-\x1f\x7f]/g, " ")}`,
    `action:  ${(mail.action(v.action)?.label ?? v.action).toLowerCase()}${v.expiresAt ? `   (expires ${v.expiresAt})` : ""}`,
  ];
  if (v.link) lines.push("link:", v.link);
  if (v.token) lines.push("token:", v.token);
  if (v.code) lines.push("code:", v.code);
  return lines.join("\n") + "\n";
}

/** Interruptible sleeps, ended by SIGINT/SIGTERM through io.onSignal. */
function stopper(io: CliIO) {
  let wake: (() => void) | undefined;
  const state = { stopped: false };
  const off = io.onSignal?.(() => { state.stopped = true; wake?.(); });
  return {
    get stopped() { return state.stopped; },
    sleep: (ms: number) => new Promise<void>((resolve) => {
      const t = setTimeout(() => { wake = undefined; resolve(); }, ms);
      wake = () => { clearTimeout(t); wake = undefined; resolve(); };
    }),
    dispose: () => off?.(),
  };
}
