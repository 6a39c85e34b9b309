import { CommandError, type CommandSpec } from "../core/commands.js";
import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { launchCommand } from "../util/launch-command.js";
import { suggestName } from "../util/suggest.js";
import { deleteRole, getUserRoles, listRoleHolders, listRoles, putRole, removePermissions, setUserRole } from "./roles.js";

/** A refused input (a bad role name) is a usage error, exit 2. */
async function usage<T>(work: () => Promise<T>): Promise<T> {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError && err.code === "BAD_INPUT") throw new CommandError(err.message, 2);
    throw err;
  }
}

/**
 * "no role X" for a role that does not exist, with the existing role it most likely meant (a typo
 * such as "admn" for "admin"), or how to create it when nothing is close.
 */
async function describeNoRole(ctx: CoreContext, role: string): Promise<CommandError> {
  const guess = suggestName(role, (await listRoles(ctx)).map((r) => r.role));
  return new CommandError(`no role ${role}; ${guess ? `did you mean ${guess}?` : `create it with: ${launchCommand()} roles create ${role}`}`);
}

const listed = (permissions: readonly string[]) => permissions.join(", ") || "(no permissions)";
/** How a listing marks a role organizations may hand out. */
const marked = (r: { role: string; organization: boolean }) => `${r.role}${r.organization ? " (organizations)" : ""}`;

/** `create` and `add-permissions` do the same (a role is created when new); only their help differs. */
const putCommand = (name: string, description: string): CommandSpec => ({
  name, description,
  arguments: [{ name: "<role>" }, { name: "[permissions...]" }],
  options: [
    { flags: "--organization", description: "organizations may hand this role out (invitations, member roles, domains)" },
    { flags: "--no-organization", description: "only the operator gives it (the default for a new role)" },
  ],
  action: (run) => run.withApp(async (app) => {
    const [role, ...permissions] = run.args;
    const organization = typeof run.flags.organization === "boolean" ? run.flags.organization : undefined;
    const r = await usage(() => putRole(app.ctx, role, permissions, { organization, source: "cli" }));
    if (run.flags.json) return run.json({ ...r.role, created: r.created });
    run.out(`${r.created ? "created" : "updated"} ${marked(r.role)}: ${listed(r.role.permissions)}`);
  }),
});

/** `authsvc roles list | users | create | add-permissions | remove-permissions | delete`. */
export const roleCommands: CommandSpec = {
  name: "roles",
  description: "roles and their permissions (carried in access tokens as st-role and st-perm)",
  after: "admins",
  commands: [
    {
      name: "list",
      description: "every role with its permissions",
      action: (run) => run.withApp(async (app) => {
        const list = await listRoles(app.ctx);
        if (run.flags.json) return run.json({ roles: list });
        if (list.length === 0) return run.out("no roles");
        for (const r of list) run.out(`${marked(r)}: ${listed(r.permissions)}`);
      }),
    },
    {
      name: "users",
      description: "the ids of the users who have a role",
      arguments: [{ name: "<role>" }],
      action: (run) => run.withApp(async (app) => {
        const role = run.args[0];
        const ids = await listRoleHolders(app.ctx, role);
        if (!ids) throw await describeNoRole(app.ctx, role);
        if (run.flags.json) return run.json({ role, users: ids });
        run.out(ids.length ? ids.join("\n") : `no user has ${role}`);
      }),
    },
    putCommand("create", "create a role (or add to it) with these permissions"),
    putCommand("add-permissions", "add permissions to a role (created if new)"),
    {
      name: "remove-permissions",
      description: "take permissions from a role",
      arguments: [{ name: "<role>" }, { name: "<permissions...>" }],
      action: (run) => run.withApp(async (app) => {
        const [role, ...permissions] = run.args;
        const r = await usage(() => removePermissions(app.ctx, role, permissions, "cli"));
        if (!r) throw await describeNoRole(app.ctx, role);
        if (run.flags.json) return run.json(r);
        run.out(`${marked(r)}: ${listed(r.permissions)}`);
      }),
    },
    {
      name: "delete",
      description: "delete a role; everyone who had it loses it at their next refresh",
      arguments: [{ name: "<role>" }],
      action: (run) => run.withApp(async (app) => {
        const role = run.args[0];
        if (!(await deleteRole(app.ctx, role, "cli"))) throw await describeNoRole(app.ctx, role);
        if (run.flags.json) return run.json({ deleted: role });
        run.out(`deleted role ${role}`);
      }),
    },
  ],
};

/** `authsvc users roles <email-or-id> [--add R] [--remove R]`. */
export const userRoleCommand: CommandSpec = {
  name: "roles",
  description: "show a user's roles and permissions; --add or --remove a role",
  under: "users",
  arguments: [{ name: "<email-or-id>" }],
  options: [
    { flags: "--add <role>", description: "give the user this role (it must exist: authsvc roles create)" },
    { flags: "--remove <role>", description: "take this role from the user" },
  ],
  action: (run) => run.withApp(async (app) => {
    const ref = run.args[0];
    const u = await app.findUser(ref);
    for (const [role, remove] of [[run.flags.add, false], [run.flags.remove, true]] as const) {
      if (typeof role !== "string") continue;
      const r = await usage(() => setUserRole(app.ctx, u.id, role, { remove, source: "cli" }));
      if (r.status === "UNKNOWN_ROLE") throw await describeNoRole(app.ctx, role);
      if (r.status === "UNKNOWN_USER") throw new CommandError(`no user ${ref}`);
    }
    const now = (await getUserRoles(app.ctx, u.id))!;
    if (run.flags.json) return run.json(now);
    run.out(`roles:       ${now.roles.join(", ") || "(none)"}\npermissions: ${now.permissions.join(", ") || "(none)"}`);
  }),
};
