import { Command } from "commander";
import { listPersonCredentials, removeCredential } from "../methods/webauthn/credentials.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { resolveUserRef } from "./user-ref.js";
import { addUserArgument, pickUserRef } from "./user-arg.js";

const iso = (ms: number | null) => (ms === null ? "never" : new Date(ms).toISOString());

/** `authsvc passkeys list <email-or-id>` and `authsvc passkeys remove <email-or-id> --id CREDENTIAL_ID`. */
export function passkeysCommand(io: CliIO): Command {
  const passkeys = new Command("passkeys").description("list or remove a user's passkeys");
  const sub = (name: string, desc: string) => addAdminSubcommand(passkeys, name, desc);
  const list = addUserArgument(sub("list", "list a user's passkeys, oldest first"), ["user"]);
  list.action(async (ref, flags) => {
    const who = pickUserRef(io, list, ref, flags)!;
    return withApp(flags, io, async (app) => {
      const user = await resolveUserRef(app, who);
      const found = (await listPersonCredentials(app.ctx, user.id)) ?? [];
      if (flags.json) return printJson(io, { userId: user.id, email: user.email, passkeys: found });
      if (found.length === 0) return io.out(`no passkeys for ${user.email} (${user.id})`);
      for (const p of found) io.out(`${p.webauthnCredentialId}  added ${iso(p.createdAt)}  last used ${iso(p.lastUsedAt)}`);
    });
  });
  const remove = addUserArgument(sub("remove", "remove one passkey of a user (refused when it is their last way to sign in)"), ["user"])
    .requiredOption("--id <credential-id>", "the passkey's credential id, as `passkeys list` shows it");
  remove.action(async (ref, flags) => {
    const who = pickUserRef(io, remove, ref, flags)!;
    return withApp(flags, io, async (app) => {
      const user = await resolveUserRef(app, who);
      const r = await removeCredential(app.ctx, { userId: user.id, credentialId: flags.id, source: "cli" });
      if (r.status === "CREDENTIAL_NOT_FOUND_ERROR") throw new CliError(`${user.email} (${user.id}) has no passkey ${flags.id}`);
      if (r.status === "LAST_WAY_IN") throw new CliError(r.reason);
      if (flags.json) return printJson(io, { userId: user.id, removed: flags.id });
      io.out(`removed passkey ${flags.id} of ${user.email} (${user.id})`);
    });
  });
  return passkeys;
}
