import { Option, type Command } from "commander";
import { CliError, type CliIO } from "./io.js";

/**
 * One way to name a user in every command: the first argument, an email or an id
 * (`authsvc sessions list ada@example.com`), as `users show` always took it. The options older
 * releases used (`--user`, `--email`) still work for scripts, hidden from the help, with a
 * one-line notice on stderr.
 */
export function addUserArgument(cmd: Command, old: ReadonlyArray<"user" | "email">, required = true): Command {
  cmd.argument("[email-or-id]", required ? "the user, by email or id" : "the user, by email or id (optional)");
  for (const name of old) cmd.addOption(new Option(`--${name} <email-or-id>`, "deprecated: name the user as the first argument").hideHelp());
  return cmd;
}

/**
 * The user a command was given, from the argument or a deprecated option (with its notice).
 * Undefined when none was given and `required` is false; a usage error (exit 2) when none was
 * given but one is needed, or when two disagree.
 */
export function pickUserRef(io: CliIO, cmd: Command, positional: string | undefined, flags: Record<string, unknown>, required = true): string | undefined {
  const given = (["user", "email"] as const).filter((k) => typeof flags[k] === "string");
  for (const k of given) io.err(`authsvc: --${k} is deprecated; name the user as the first argument: authsvc ${commandPath(cmd)} ${String(flags[k])}`);
  const all = [positional, ...given.map((k) => String(flags[k]))].filter((x): x is string => x !== undefined);
  if (new Set(all).size > 1) throw new CliError(`name one user, not ${all.map((x) => JSON.stringify(x)).join(" and ")}`, 2);
  if (all.length === 0 && required) throw new CliError(`name the user, by email or id: authsvc ${commandPath(cmd)} <email-or-id>`, 2);
  return all[0];
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c && c.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}
