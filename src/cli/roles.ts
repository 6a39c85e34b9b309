import { Command } from "commander";
import { AuthError } from "../core/errors.js";
import { clearMetadata, getMetadata, updateMetadata, type MetadataResult } from "../metadata/metadata.js";
import { deleteRole, getUserRoles, listRoleHolders, listRoles, putRole, removePermissions, setUserRole } from "../roles/roles.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { resolveUserRef } from "./user-ref.js";
import { suggestName } from "../util/suggest.js";
import { launchCommand } from "../util/launch-command.js";
import type { CoreContext } from "../core/context.js";

/** A refused input (a bad role name, metadata that is not an object) is a usage error, exit 2. */
async function usage<T>(work: () => Promise<T>): Promise<T> {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError && err.code === "BAD_INPUT") throw new CliError(err.message, 2);
    throw err;
  }
}

/**
 * "no role X" for a role that does not exist, with the existing role it most likely meant (a typo
 * such as "admn" for "admin"), or how to create it when nothing is close.
 */
async function describeNoRole(ctx: CoreContext, role: string): Promise<CliError> {
  const guess = suggestName(role, (await listRoles(ctx)).map((r) => r.role));
  return new CliError(`no role ${role}; ${guess ? `did you mean ${guess}?` : `create it with: ${launchCommand()} roles create ${role}`}`);
}

/** `authsvc roles list | show | create | add-permissions | remove-permissions | delete`. */
export function rolesCommand(io: CliIO): Command {
  const roles = new Command("roles").description("roles and their permissions (carried in access tokens as st-role and st-perm)");
  const sub = (name: string, desc: string) => addAdminSubcommand(roles, name, desc);
  sub("list", "every role with its permissions")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listRoles(app.ctx);
      if (flags.json) return printJson(io, { roles: list });
      if (list.length === 0) return io.out("no roles");
      for (const r of list) io.out(`${r.role}: ${r.permissions.join(", ") || "(no permissions)"}`);
    }));
  sub("users", "the ids of the users who have a role").argument("<role>")
    .action(async (role, flags) => withApp(flags, io, async (app) => {
      const ids = await listRoleHolders(app.ctx, role);
      if (!ids) throw await describeNoRole(app.ctx, role);
      if (flags.json) return printJson(io, { role, users: ids });
      io.out(ids.length ? ids.join("\n") : `no user has ${role}`);
    }));
  for (const [name, desc] of [["create", "create a role (or add to it) with these permissions"], ["add-permissions", "add permissions to a role (created if new)"]] as const) {
    sub(name, desc).argument("<role>").argument("[permissions...]")
      .action(async (role, permissions: string[], flags) => withApp(flags, io, async (app) => {
        const r = await usage(() => putRole(app.ctx, role, permissions, { source: "cli" }));
        if (flags.json) return printJson(io, { ...r.role, created: r.created });
        io.out(`${r.created ? "created" : "updated"} ${role}: ${r.role.permissions.join(", ") || "(no permissions)"}`);
      }));
  }
  sub("remove-permissions", "take permissions from a role").argument("<role>").argument("<permissions...>")
    .action(async (role, permissions: string[], flags) => withApp(flags, io, async (app) => {
      const r = await usage(() => removePermissions(app.ctx, role, permissions, "cli"));
      if (!r) throw await describeNoRole(app.ctx, role);
      if (flags.json) return printJson(io, r);
      io.out(`${role}: ${r.permissions.join(", ") || "(no permissions)"}`);
    }));
  sub("delete", "delete a role; everyone who had it loses it at their next refresh").argument("<role>")
    .action(async (role, flags) => withApp(flags, io, async (app) => {
      if (!(await deleteRole(app.ctx, role, "cli"))) throw await describeNoRole(app.ctx, role);
      if (flags.json) return printJson(io, { deleted: role });
      io.out(`deleted role ${role}`);
    }));
  return roles;
}

/** `authsvc users roles <user> [--add R] [--remove R]` and `authsvc users metadata <user> [--set JSON] [--clear]`. */
export function addUserRoleAndMetadataCommands(users: Command, io: CliIO): void {
  addAdminSubcommand(users, "roles", "show a user's roles and permissions; --add or --remove a role").argument("<email-or-id>")
    .option("--add <role>", "give the user this role (it must exist: authsvc roles create)")
    .option("--remove <role>", "take this role from the user")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await resolveUserRef(app, ref);
      for (const [role, remove] of [[flags.add, false], [flags.remove, true]] as const) {
        if (role === undefined) continue;
        const r = await usage(() => setUserRole(app.ctx, u.id, role, { remove, source: "cli" }));
        if (r.status === "UNKNOWN_ROLE") throw await describeNoRole(app.ctx, role);
        if (r.status === "UNKNOWN_USER") throw new CliError(`no user ${ref}`);
      }
      const now = (await getUserRoles(app.ctx, u.id))!;
      if (flags.json) return printJson(io, now);
      io.out(`roles:       ${now.roles.join(", ") || "(none)"}\npermissions: ${now.permissions.join(", ") || "(none)"}`);
    }));
  addAdminSubcommand(users, "metadata", "show a user's metadata; --set merges a JSON object into it (null deletes a key); --clear removes it").argument("<email-or-id>")
    .option("--set <json>", "a JSON object merged into the metadata, e.g. '{\"plan\":\"pro\"}'")
    .option("--clear", "remove all of it")
    .action(async (ref, flags) => {
      let update: unknown;
      if (flags.set !== undefined) {
        try { update = JSON.parse(flags.set); } catch { throw new CliError("--set takes a JSON object, e.g. '{\"plan\":\"pro\"}'", 2); }
      }
      return withApp(flags, io, async (app) => {
        const u = await resolveUserRef(app, ref);
        let r: MetadataResult | undefined;
        if (flags.clear) r = await clearMetadata(app.ctx, u.id, "cli");
        if (update !== undefined) r = await usage(() => updateMetadata(app.ctx, u.id, update, "cli"));
        if (r?.status === "TOO_LARGE") throw new CliError(`metadata would be ${r.bytes} bytes of JSON; the limit is ${r.limit} (metadataMaxBytes); nothing changed`);
        const now = (await getMetadata(app.ctx, u.id))!;
        if (flags.json) return printJson(io, now);
        io.out(JSON.stringify(now.metadata, null, 2));
      });
    });
}
