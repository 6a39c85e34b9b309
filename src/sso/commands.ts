import { CommandError, type CommandApp, type CommandSpec } from "../core/commands.js";
import { findOrganization, findOrganizationBySlug } from "../organizations/store.js";
import { rotateScimToken } from "./scim-tokens.js";

/** An organization's id by its id or slug. */
async function resolveOrg(app: CommandApp, ref: string): Promise<{ id: string; slug: string }> {
  const db = app.ctx.store.db;
  const o = (await findOrganization(db, ref)) ?? (await findOrganizationBySlug(db, ref));
  if (!o) throw new CommandError(`no organization ${ref} (give its id or slug; authsvc orgs list shows them)`);
  return o;
}

/** `authsvc orgs scim-token <org>`: under the organizations room's `orgs`. */
export const ssoCommands: CommandSpec = {
  name: "scim-token", under: "orgs",
  description: "make the organization's SCIM bearer token (shown once; replaces the one it had)",
  arguments: [{ name: "<org>", description: "id or slug" }],
  action: (run) => run.withApp(async (app) => {
    const o = await resolveOrg(app, run.args[0]);
    const token = await rotateScimToken(app.ctx, o.id, "cli");
    if (run.flags.json) return run.json({ token });
    run.out(`SCIM base URL: ${app.ctx.config.publicUrl.replace(/\/+$/, "")}/scim/v2\nbearer token (shown once; the previous one no longer works):\n${token}`);
  }),
};
