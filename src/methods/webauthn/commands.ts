import { CommandError, type CommandSpec } from "../../core/commands.js";
import { listPersonCredentials, removeCredential } from "./credentials.js";

const iso = (ms: number | null) => (ms === null ? "never" : new Date(ms).toISOString());

/** `authsvc passkeys list <email-or-id>` and `authsvc passkeys remove <email-or-id> --id CREDENTIAL_ID`. */
export const passkeyCommands: CommandSpec = {
  name: "passkeys",
  description: "list or remove a user's passkeys",
  after: "sessions",
  commands: [
    {
      name: "list",
      description: "list a user's passkeys, oldest first",
      user: { deprecated: ["user"] },
      action: (run) => run.withApp(async (app) => {
        const user = await app.findUser(run.user!);
        const found = (await listPersonCredentials(app.ctx, user.id)) ?? [];
        if (run.flags.json) return run.json({ userId: user.id, email: user.email, passkeys: found });
        if (found.length === 0) return run.out(`no passkeys for ${user.email} (${user.id})`);
        for (const p of found) run.out(`${p.webauthnCredentialId}  added ${iso(p.createdAt)}  last used ${iso(p.lastUsedAt)}`);
      }),
    },
    {
      name: "remove",
      description: "remove one passkey of a user (refused when it is their last way to sign in)",
      user: { deprecated: ["user"] },
      options: [{ flags: "--id <credential-id>", description: "the passkey's credential id, as `passkeys list` shows it", required: true }],
      action: (run) => run.withApp(async (app) => {
        const user = await app.findUser(run.user!);
        const id = String(run.flags.id);
        const r = await removeCredential(app.ctx, { userId: user.id, credentialId: id, source: "cli" });
        if (r.status === "CREDENTIAL_NOT_FOUND_ERROR") throw new CommandError(`${user.email} (${user.id}) has no passkey ${id}`);
        if (r.status === "LAST_WAY_IN") throw new CommandError(r.reason);
        if (run.flags.json) return run.json({ userId: user.id, removed: id });
        run.out(`removed passkey ${id} of ${user.email} (${user.id})`);
      }),
    },
  ],
};
