import { CommandError, type CommandRun, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { listAudit, type AuditEntry, type AuditFilter } from "./audit.js";
import { parseMoment } from "./time-input.js";

/** How often --follow looks for new entries. */
const FOLLOW_POLL_MS = 1000;

/** One entry on one line: time, action, actor, person, where from, details. */
export function describeEntry(e: AuditEntry): string {
  const parts = [new Date(e.at).toISOString(), e.action, e.actor];
  if (e.userId) parts.push(`user=${e.userId}`);
  if (e.ip) parts.push(`ip=${e.ip}`);
  if (e.userAgent) parts.push(`ua=${JSON.stringify(e.userAgent)}`);
  if (e.details !== null) parts.push(JSON.stringify(e.details));
  return parts.join("  ");
}

function usage<T>(work: () => T): T {
  try { return work(); } catch (err) {
    if (err instanceof AuthError && err.code === "BAD_INPUT") throw new CommandError(err.message, 2);
    throw err;
  }
}

const print = (run: CommandRun, e: AuditEntry) => (run.flags.json ? run.json(e) : run.out(describeEntry(e)));

/** `authsvc audit [--user …] [--actor …] [--action …] [--since …] [--until …] [--limit N] [--json] [--follow]`. */
export const auditCommand: CommandSpec = {
  name: "audit",
  description: "the audit log: security events with who, whom, from where and when (oldest of the page first); --follow for new ones",
  after: "sessions",
  options: [
    { flags: "--user <email-or-id>", description: "only entries about this person" },
    { flags: "--actor <actor>", description: "only entries by this actor (user:<id>, admin:<id>, cli, admin-api, anonymous, system)" },
    { flags: "--action <action>", description: "only this action (user.banned), or a prefix (mfa. or mfa*)" },
    { flags: "--since <time>", description: "only entries from this time (2026-12-01, 2026-12-01T09:00:00Z) or this long ago (24h, 7d)" },
    { flags: "--until <time>", description: "only entries before this time" },
    { flags: "--limit <n>", description: "at most this many (the newest), up to 500", default: "50" },
    { flags: "--follow", description: "then keep printing new entries as they are written, until interrupted" },
  ],
  action: (run) => run.withApp(async (app) => {
    const now = app.ctx.clock.now();
    const filter: AuditFilter = usage(() => ({
      actor: typeof run.flags.actor === "string" ? run.flags.actor : undefined,
      action: typeof run.flags.action === "string" ? run.flags.action : undefined,
      since: parseMoment(run.flags.since, now, "--since"),
      until: parseMoment(run.flags.until, now, "--until"),
      limit: Number(run.flags.limit ?? 50),
    }));
    if (typeof run.flags.user === "string") filter.userId = (await app.findUser(run.flags.user)).id;
    const page = await listAuditOrUsage(() => listAudit(app.ctx, filter));
    const shown = [...page.entries].reverse();
    for (const e of shown) print(run, e);
    if (!run.flags.follow) {
      if (shown.length === 0 && !run.flags.json) run.out("no entries");
      return;
    }
    let last = page.entries[0]?.id;
    let stopped = false;
    let wake: (() => void) | undefined;
    const off = run.onInterrupt(() => { stopped = true; wake?.(); });
    try {
      while (!stopped) {
        const fresh = last === undefined
          ? [...(await listAudit(app.ctx, { ...filter, limit: 500 })).entries].reverse() // none matched at the start: all are new
          : (await listAudit(app.ctx, { ...filter, after: last, limit: 500 })).entries;
        for (const e of fresh) print(run, e);
        if (fresh.length) last = fresh[fresh.length - 1].id;
        await new Promise<void>((resolve) => { const t = setTimeout(resolve, FOLLOW_POLL_MS); wake = () => { clearTimeout(t); resolve(); }; });
      }
    } finally {
      off();
    }
  }),
};

async function listAuditOrUsage<T>(work: () => Promise<T>): Promise<T> {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError && err.code === "BAD_INPUT") throw new CommandError(err.message, 2);
    throw err;
  }
}
