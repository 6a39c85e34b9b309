import { CommandError, type CommandSpec } from "../../core/commands.js";
import { resetSecondFactor } from "./reset.js";

/** `authsvc users mfa reset <email-or-id>`: a lost phone, without a database session. */
export const secondFactorCommands: CommandSpec = {
  name: "mfa",
  description: "a user's second factor (TOTP)",
  under: "users",
  commands: [{
    name: "reset",
    description: "remove a user's TOTP devices and recovery codes (records an event and mails the user)",
    arguments: [{ name: "<email-or-id>" }],
    action: (run) => run.withApp(async (app) => {
      const ref = run.args[0];
      const u = await app.findUser(ref);
      const r = await resetSecondFactor(app.ctx, u.id, "cli");
      if (r.status === "NOT_FOUND") throw new CommandError(`no user ${ref}`);
      if (run.flags.json) return run.json({ userId: r.userId, removedDevices: r.removedDevices, changed: r.changed });
      run.out(r.changed ? `removed the second factor of ${u.email} (${r.removedDevices} device(s)); they were mailed` : `${u.email} has no second factor: nothing changed`);
    }),
  }],
};
