import { Command } from "commander";
import { createSecretToken } from "../util/random.js";
import type { CliIO } from "./io.js";

/** `authsvc admin-key`: prints a new admin API key (256 random bits) for AUTHSVC_ADMIN_API_KEY. */
export function adminKeyCommand(io: CliIO): Command {
  return new Command("admin-key")
    .description("print a new random admin API key (set it as AUTHSVC_ADMIN_API_KEY)")
    .action(() => { io.out(createSecretToken()); });
}
