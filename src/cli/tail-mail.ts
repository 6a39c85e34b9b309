import { Command } from "commander";
import { CliError, type CliIO } from "./io.js";

/** `authsvc tail-mail`: arrives with the mail pipeline. */
export function tailMailCommand(_io: CliIO): Command {
  return new Command("tail-mail")
    .description("print mail caught by the built-in catcher (arrives with the mail pipeline)")
    .allowUnknownOption(true)
    .action(() => { throw new CliError("tail-mail arrives with the mail pipeline (next release)", 2); });
}
