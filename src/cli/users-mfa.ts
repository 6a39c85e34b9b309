import { Command } from "commander";
import { resetSecondFactor } from "../methods/totp/reset.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { resolveUserRef } from "./user-ref.js";

/** `authsvc users mfa reset <email-or-id>`: a lost phone, without a database session. */
export function addMfaCommands(users: Command, io: CliIO): void {
  const mfa = new Command("mfa").description("a user's second factor (TOTP)");
  users.addCommand(mfa);
  addAdminSubcommand(mfa, "reset", "remove a user's TOTP devices and recovery codes (records an event and mails the user)").argument("<email-or-id>")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await resolveUserRef(app, ref);
      const r = await resetSecondFactor(app.ctx, u.id, "cli");
      if (r.status === "NOT_FOUND") throw new CliError(`no user ${ref}`);
      if (flags.json) return printJson(io, { userId: r.userId, removedDevices: r.removedDevices, changed: r.changed });
      io.out(r.changed ? `removed the second factor of ${u.email} (${r.removedDevices} device(s)); they were mailed` : `${u.email} has no second factor: nothing changed`);
    }));
}
