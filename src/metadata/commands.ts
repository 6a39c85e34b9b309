import { CommandError, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { clearMetadata, getMetadata, updateMetadata, type MetadataResult } from "./metadata.js";

const EXAMPLE = `'{"plan":"pro"}'`;

/** `authsvc users metadata <email-or-id> [--set JSON] [--clear]`. */
export const userMetadataCommand: CommandSpec = {
  name: "metadata",
  description: "show a user's metadata; --set merges a JSON object into it (null deletes a key); --clear removes it",
  under: "users",
  arguments: [{ name: "<email-or-id>" }],
  options: [
    { flags: "--set <json>", description: `a JSON object merged into the metadata, e.g. ${EXAMPLE}` },
    { flags: "--clear", description: "remove all of it" },
  ],
  async action(run) {
    // Checked before the database is opened: a usage error must not migrate or create anything.
    let update: unknown;
    if (run.flags.set !== undefined) {
      try { update = JSON.parse(String(run.flags.set)); } catch { throw new CommandError(`--set takes a JSON object, e.g. ${EXAMPLE}`, 2); }
    }
    await run.withApp(async (app) => {
      const ref = run.args[0];
      const u = await app.findUser(ref);
      let r: MetadataResult | undefined;
      if (run.flags.clear) r = await clearMetadata(app.ctx, u.id, "cli");
      if (update !== undefined) {
        try { r = await updateMetadata(app.ctx, u.id, update, "cli"); } catch (err) {
          // Valid JSON that is not an object is refused as input: a usage error, exit 2.
          if (err instanceof AuthError && err.code === "BAD_INPUT") throw new CommandError(err.message, 2);
          throw err;
        }
      }
      if (r?.status === "TOO_LARGE") throw new CommandError(`metadata would be ${r.bytes} bytes of JSON; the limit is ${r.limit} (metadataMaxBytes); nothing changed`);
      const now = (await getMetadata(app.ctx, u.id))!;
      if (run.flags.json) return run.json(now);
      run.out(JSON.stringify(now.metadata, null, 2));
    });
  },
};
