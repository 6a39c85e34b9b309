import { Command } from "commander";
import { listSigningKeys, rotateSigningKey } from "../core/signing-keys.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import type { CliIO } from "./io.js";

/** `authsvc keys list | rotate`: the JWT signing keys. */
export function keysCommand(io: CliIO): Command {
  const keys = new Command("keys").description("list or rotate the JWT signing keys");
  const sub = (name: string, desc: string) => addAdminSubcommand(keys, name, desc);
  sub("list", "list signing keys, newest first (current, still published, expired)")
    .action(async (flags) => withApp(flags, io, async (app) => {
      let list = await listSigningKeys(app.ctx);
      if (list.length === 0) { // a fresh database: create the first key, as the server would
        await app.ctx.keys.load();
        list = await listSigningKeys(app.ctx);
      }
      if (flags.json) return printJson(io, list);
      for (const k of list) {
        const retired = k.retiredAt === null ? "" : `  retired ${new Date(k.retiredAt).toISOString()}`;
        io.out(`${k.kid}  ${k.state.padEnd(9)}  created ${new Date(k.createdAt).toISOString()}${retired}`);
      }
    }));
  sub("rotate", "make a new current key; the old one keeps verifying until its tokens have expired")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const r = await rotateSigningKey(app.ctx, "cli");
      if (flags.json) return printJson(io, r);
      io.out(`new signing key ${r.kid}; retired ${r.retired} key(s). Running servers pick it up within a minute.`);
    }));
  return keys;
}
