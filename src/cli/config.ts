import { Command } from "commander";
import { describeConfig } from "../config.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import type { CliIO } from "./io.js";

/** `authsvc config`: the effective settings, where each came from, secrets masked. */
export function configCommand(io: CliIO): Command {
  const cmd = new Command("config").description("print the effective configuration and where each setting came from").option("--json", "machine-readable output");
  addConfigOptions(cmd, "all");
  return cmd.action(async (flags) => {
    const resolved = configFromFlags(flags, io);
    const rows = describeConfig(resolved);
    if (flags.json) return io.out(JSON.stringify({ configFile: resolved.configFile ?? null, settings: rows.map(({ doc: _doc, secret: _secret, ...r }) => r) }));
    if (resolved.configFile) io.out(`config file: ${resolved.configFile}`);
    const width = Math.max(...rows.map((r) => r.key.length));
    for (const r of rows) {
      const v = r.value === undefined ? "(unset)" : typeof r.value === "string" ? r.value : JSON.stringify(r.value);
      io.out(`${r.key.padEnd(width)}  ${v}  [${r.source}${r.source === "env" ? ` ${r.env}` : ""}]`);
    }
  });
}
