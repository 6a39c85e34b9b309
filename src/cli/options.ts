import { Command, Option } from "commander";
import { ConfigError, resolveConfig, settings, type ResolvedConfig } from "../config.js";
import { BOOLEAN_KIND } from "../config/parsers.js";
import { CliError, type CliIO } from "./io.js";
import { helpGroupOf, sortOptionsByGroup } from "./option-groups.js";

/** Settings the admin commands list in their --help (they hash passwords and open the database). */
const COMMON = new Set(["mode", "database", "sqliteSynchronous", "bcryptCost", "passwordMinLength", "logLevel"]);

/**
 * Adds the configuration flags to a command. Every command accepts every setting, so the flags a
 * `serve` line was given work on an admin command too and both build the same links and apply
 * the same rules (`reset-password --send-link --hosted-pages` links where `serve --hosted-pages`
 * does); "common" only keeps the --help of admin commands short: the others are accepted, unlisted.
 */
export function addConfigOptions(cmd: Command, which: "all" | "common"): Command {
  const own = cmd.options.length;
  cmd.option("-c, --config <file>", "JSON config file (or AUTHSVC_CONFIG)");
  for (const s of settings) {
    if (!s.flag) continue;
    const hidden = which === "common" && !COMMON.has(s.key);
    const add = (o: Option) => cmd.addOption(hidden ? o.hideHelp() : o);
    // A boolean: `--flag` alone is true, `--flag false` (or true, yes, no, on, off, 1, 0) says which, `--no-flag` is false.
    if (s.parse.kind === BOOLEAN_KIND) {
      add(new Option(`--${s.flag} [${BOOLEAN_KIND}]`, `${s.doc} [env ${s.env}]`));
      add(new Option(`--no-${s.flag}`, `turn off ${s.flag}`));
    } else {
      add(new Option(`--${s.flag} <${s.parse.kind ?? "value"}>`, `${s.doc} [env ${s.env}]`));
    }
  }
  cmd.option("--production", "shorthand for --mode production");
  // The full list (serve's, ~90 settings) reads under headings, after the command's own options.
  if (which === "all") {
    for (const o of cmd.options.slice(own)) o.helpGroup(helpGroupOf(o.name().replace(/^no-/, "")));
    sortOptionsByGroup(cmd.options as Option[]);
  }
  if (which === "common") cmd.addHelpText("after", "\nEvery setting of `authsvc serve` is accepted too (see `authsvc serve --help`); keep them in one\nconfig file (--config or AUTHSVC_CONFIG) or the environment so serve and this command agree.");
  return cmd;
}

/** Adds an admin subcommand (`users list`, `keys rotate`, …) with `--json` and the common settings. */
export function addAdminSubcommand(parent: Command, name: string, description: string): Command {
  const c = new Command(name).description(description).option("--json", "machine-readable output");
  addConfigOptions(c, "common");
  addCreateOption(c);
  parent.addCommand(c);
  return c;
}

/** Resolves the config from the command's flags, the environment and the config file. */
export function configFromFlags(flags: Record<string, unknown>, io: CliIO): ResolvedConfig {
  try {
    return resolveConfig({ flags, env: io.env });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration error: ${err.message}`, 2);
    throw err;
  }
}

/** `--create`: an admin command may make a new SQLite database (otherwise a missing file is an error). */
export function addCreateOption(cmd: Command): Command {
  return cmd.option("--create", "create the SQLite database if it does not exist (otherwise a missing file is refused)");
}
