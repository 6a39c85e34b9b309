import { Command } from "commander";
import { listPersonCredentials, removeCredential } from "../methods/webauthn/credentials.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { resolveUserRef } from "./user-ref.js";

const iso = (ms: number | null) => (ms === null ? "never" : new Date(ms).toISOString());

/** `authsvc passkeys list --user E|ID` and `authsvc passkeys remove --user E|ID --id CREDENTIAL_ID`. */
export function passkeysCommand(io: CliIO): Command {
  const passkeys = new Command("passkeys").description("list or remove a user's passkeys");
  const sub = (name: string, desc: string) => addAdminSubcommand(passkeys, name, desc);
  sub("list", "list a user's passkeys, oldest first")
    .requiredOption("--user <email-or-id>", "the user, by email or id")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const user = await resolveUserRef(app, flags.user);
      const list = (await listPersonCredentials(app.ctx, user.id)) ?? [];
      if (flags.json) return printJson(io, { userId: user.id, email: user.email, passkeys: list });
      if (list.length === 0) return io.out(`no passkeys for ${user.email} (${user.id})`);
      for (const p of list) io.out(`${p.webauthnCredentialId}  added ${iso(p.createdAt)}  last used ${iso(p.lastUsedAt)}`);
    }));
  sub("remove", "remove one passkey of a user (refused when it is their last way to sign in)")
    .requiredOption("--user <email-or-id>", "the user, by email or id")
    .requiredOption("--id <credential-id>", "the passkey's credential id, as `passkeys list` shows it")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const user = await resolveUserRef(app, flags.user);
      const r = await removeCredential(app.ctx, { userId: user.id, credentialId: flags.id, source: "cli" });
      if (r.status === "CREDENTIAL_NOT_FOUND_ERROR") throw new CliError(`${user.email} (${user.id}) has no passkey ${flags.id}`);
      if (r.status === "LAST_WAY_IN") throw new CliError(r.reason);
      if (flags.json) return printJson(io, { userId: user.id, removed: flags.id });
      io.out(`removed passkey ${flags.id} of ${user.email} (${user.id})`);
    }));
  return passkeys;
}
