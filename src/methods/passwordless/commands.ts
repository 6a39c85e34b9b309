import { CommandError, type UserCreationSpec } from "../../core/commands.js";
import { toUserJson } from "../../core/users.js";
import { createPasswordlessUser } from "./consume.js";

/** `authsvc users create <email> --passwordless`: a user who signs in with mailed codes only (their address verified). */
export const passwordlessUserCreation: UserCreationSpec = {
  summary: "--passwordless",
  options: [{ flags: "--passwordless", description: "no password: the user signs in with a code or link mailed to the address (verified)" }],
  when: (flags) => flags.passwordless === true,
  async create(email, run) {
    if (run.flags.passwordStdin || run.flags.password !== undefined) throw new CommandError("--passwordless takes no password", 2);
    return run.withApp(async (app) => {
      const r = await createPasswordlessUser(app.ctx, { email, source: "cli" });
      if (r.status !== "OK") throw new CommandError(`could not create user: ${r.message}`);
      if (run.flags.json) run.json(toUserJson(r.user));
      else run.out(`created user ${r.user.id} <${r.user.email}> (passwordless, verified)`);
    });
  },
};
