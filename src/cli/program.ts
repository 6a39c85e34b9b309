import type { Command } from "commander";
import { adminKeyCommand } from "./admin-key.js";
import { backupCommands } from "./backup.js";
import { benchCommand } from "./bench.js";
import { configCommand } from "./config.js";
import { createUserCommand } from "./create-user.js";
import type { CliIO } from "./io.js";
import { mailCommand } from "./mail.js";
import { keysCommand } from "./keys.js";
import { limitsCommand } from "./limits.js";
import { programOf } from "./main.js";
import { migrateCommand } from "./migrate.js";
import { serveCommand } from "./serve.js";
import { sessionsCommand } from "./sessions.js";
import { withRoomCommands } from "./room-commands.js";
import { tailMailCommand } from "./tail-mail.js";
import { dbCommand } from "./db.js";
import { usersCommand } from "./users.js";

const COMMANDS = [serveCommand, migrateCommand, dbCommand, createUserCommand, usersCommand, configCommand, tailMailCommand, mailCommand, keysCommand, sessionsCommand, limitsCommand, adminKeyCommand, benchCommand];

/**
 * The whole commander program: every command, the rooms' (Room.commands) where their ordering hints
 * put them, and the backup commands. Every command is a factory taking the IO, so tests run it
 * in-process. main.ts imports this module for any command but `serve`; `only: "serve"` is the
 * program `serve` runs (main.ts builds it without this module).
 */
export function createProgram(io: CliIO, only?: "serve"): Command {
  if (only) return programOf(io, [serveCommand(io)]);
  return programOf(io, [...withRoomCommands(COMMANDS.map((make) => make(io)), io), ...backupCommands(io)]);
}
