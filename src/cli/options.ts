import { Command, Option } from "commander";
import { ConfigError, resolveConfig, settings, type ResolvedConfig } from "../config.js";
import { CliError, type CliIO } from "./io.js";

const BOOLEAN_KEYS = new Set(["mailCatcher", "emailVerificationRequiresSession", "metrics", "hostedPages", "rateLimits"]);
/**
 * Settings the admin commands take as flags (they hash passwords and open the database);
 * `serve` and `config` take all of them. Every setting still works from env and file.
 */
const COMMON = new Set(["mode", "database", "sqliteSynchronous", "bcryptCost", "passwordMinLength", "logLevel"]);

/** Adds the configuration flags (all, or the common ones) to a command. */
export function addConfigOptions(cmd: Command, which: "all" | "common"): Command {
  cmd.option("-c, --config <file>", "JSON config file (or AUTHSVC_CONFIG)");
  for (const s of settings) {
    if (!s.flag || (which === "common" && !COMMON.has(s.key))) continue;
    if (BOOLEAN_KEYS.has(s.key)) {
      cmd.addOption(new Option(`--${s.flag}`, s.doc));
      cmd.addOption(new Option(`--no-${s.flag}`, `turn off ${s.flag}`));
    } else {
      cmd.addOption(new Option(`--${s.flag} <value>`, `${s.doc} [env ${s.env}]`));
    }
  }
  cmd.option("--production", "shorthand for --mode production");
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
