import { CommandError, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { organizationByRef } from "./organization-lookups.js";
import { setSsoRequired } from "./routing.js";

/** `authsvc orgs sso require <org> on|off`: "SSO required" for the organization's proven domains (under `orgs sso`). */
export const ssoRequireCommand: CommandSpec = {
  name: "require", under: "sso",
  description: "require sign-in through the organization's connection for addresses at its proven domains (on|off)",
  arguments: [{ name: "<org>", description: "id or slug" }, { name: "<on|off>" }],
  action: (run) => run.withApp(async (app) => {
    const o = await organizationByRef(app.ctx, app.ctx.store.db, run.args[0]);
    if (!o) throw new CommandError(`no organization ${run.args[0]} (give its id or slug; authsvc orgs list shows them)`);
    const value = run.args[1];
    if (value !== "on" && value !== "off") throw new CommandError("say on or off", 2);
    let changed: boolean;
    try {
      changed = await setSsoRequired(app.ctx, o.id, value === "on", "cli");
    } catch (err) {
      if (err instanceof AuthError) throw new CommandError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
      throw err;
    }
    if (run.flags.json) return run.json({ organization: o.id, ssoRequired: value === "on", changed });
    run.out(`${o.slug}: SSO ${value === "on" ? "required" : "not required"} for its proven domains${changed ? "" : " (already so)"}`);
  }),
};
