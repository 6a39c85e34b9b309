import { CommandError, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { describeEnded } from "../core/ways-in.js";
import { banPerson, describeBan, unbanPerson } from "./bans.js";
import { parseReason, parseUntil } from "./input.js";

/** A refused input (a bad --until) is a usage error, exit 2. */
function usage<T>(work: () => T): T {
  try { return work(); } catch (err) {
    if (err instanceof AuthError && err.code === "BAD_INPUT") throw new CommandError(err.message, 2);
    throw err;
  }
}

/** `authsvc users ban <email-or-id> [--until …] [--reason …] [--mail]`. */
export const banCommand: CommandSpec = {
  name: "ban",
  description: "ban a person (for good, or --until a time): every session and app ends now, and every sign-in is refused",
  under: "users",
  arguments: [{ name: "<email-or-id>" }],
  options: [
    { flags: "--until <time>", description: "when the ban lifts by itself: a time (2027-01-31, 2027-01-31T09:00:00Z) or a duration from now (7d, 12h); absent: for good" },
    { flags: "--reason <text>", description: "why (kept with the ban, shown to operators, and mailed with --mail)" },
    { flags: "--mail", description: "tell the person by mail, at their verified addresses" },
  ],
  action: (run) => run.withApp(async (app) => {
    const until = usage(() => parseUntil(run.flags.until, app.ctx.clock.now()));
    const reason = usage(() => parseReason(run.flags.reason));
    const u = await app.findUser(run.args[0]);
    const r = await banPerson(app.ctx, u.id, { until, reason, mail: run.flags.mail === true, source: "cli" });
    if (!r) throw new CommandError(`no user ${run.args[0]}`);
    if (r.mailed > 0) await app.flushMail();
    if (run.flags.json) return run.json({ ...r.ban, endedWaysIn: r.ended, mailed: r.mailed });
    run.out(`banned ${u.email} ${describeBan(r.ban)}; ended ${describeEnded(app.ctx, r.ended)}${r.mailed > 0 ? `; mailed ${r.mailed} address${r.mailed === 1 ? "" : "es"}` : ""}`);
  }),
};

/** `authsvc users unban <email-or-id>`. */
export const unbanCommand: CommandSpec = {
  name: "unban",
  description: "lift a person's ban: they may sign in again",
  under: "users",
  arguments: [{ name: "<email-or-id>" }],
  action: (run) => run.withApp(async (app) => {
    const u = await app.findUser(run.args[0]);
    const r = await unbanPerson(app.ctx, u.id, "cli");
    if (!r) throw new CommandError(`no user ${run.args[0]}`);
    if (run.flags.json) return run.json(r);
    run.out(r.lifted ? `lifted the ban on ${u.email}` : `${u.email} was not banned`);
  }),
};
