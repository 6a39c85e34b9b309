import { Command } from "commander";
import { ipKey } from "../core/limits.js";
import { clearLimits, listLimits, type LimitView } from "../core/limits-admin.js";
import { formatRemaining } from "../util/duration.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";

/** `authsvc limits list | clear`: see who is rate limited, and lift a lock. */
export function limitsCommand(io: CliIO): Command {
  const limits = new Command("limits").description("list rate-limit counters, or lift a lock");
  const sub = (name: string, desc: string) => addAdminSubcommand(limits, name, desc);
  sub("list", "list live rate-limit counters (bucket, key, count, limited until / forgotten at)")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listLimits(app.ctx);
      if (flags.json) return printJson(io, list);
      if (list.length === 0) return io.out("no live rate-limit counters");
      for (const l of list) io.out(describeLimit(l));
    }));
  sub("clear", "lift every rate limit of one address (--email) or one client IP (--ip; IPv6 by /64)")
    .option("--email <address>", "the canonical address of failed sign-ins and mail requests")
    .option("--ip <address>", "a client IP address")
    .action(async (flags) => {
      // Usage errors before the database is opened (exit 2, nothing created or migrated).
      if ((flags.email === undefined) === (flags.ip === undefined)) throw new CliError("give exactly one of --email or --ip", 2);
      if (flags.ip !== undefined && !ipKey(String(flags.ip))) throw new CliError(`--ip: not an IP address: ${flags.ip}`, 2);
      if (flags.email !== undefined && !String(flags.email).includes("@")) throw new CliError(`--email: not an address: ${flags.email}`, 2);
      return withApp(flags, io, async (app) => {
        const target = flags.email !== undefined ? { email: String(flags.email) } : { ip: String(flags.ip) };
        const r = await clearLimits(app.ctx, target, "cli");
        if (flags.json) return printJson(io, r);
        io.out(r.buckets.length ? `cleared ${r.buckets.join(", ")} for ${r.key}` : `nothing to clear for ${r.key}`);
      });
    });
  return limits;
}

/** One line of `limits list`: a lock or wait says how long it still lasts, so it cannot be missed. */
function describeLimit(l: LimitView): string {
  const when = new Date(l.until).toISOString();
  const left = formatRemaining(l.remainingMs);
  const count = l.bucket === "signin-failures"
    ? `${l.count} failed sign-in(s)${l.limit !== undefined ? `, locked at ${l.limit}` : ""}`
    : `count ${l.count}${l.limit !== undefined ? ` of ${l.limit}` : ""}`;
  const state = {
    locked: `LOCKED for ${left} more (until ${when}); lift it with \`authsvc limits clear --email ${l.key}\``,
    delayed: `DELAYED for ${left} more (until ${when}): each further failure waits longer`,
    limited: `LIMITED for ${left} more (until ${when})`,
    counting: `forgotten in ${left} (at ${when})`,
  }[l.state];
  return `${l.bucket.padEnd(16)}  ${l.key}  ${count}  ${state}`;
}
