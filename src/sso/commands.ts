import { CommandError, type CommandApp, type CommandSpec } from "../core/commands.js";
import { membershipsOf } from "../core/memberships.js";
import { readFile } from "node:fs/promises";
import { AuthError } from "../core/errors.js";
import { addSamlConnection, listConnections, removeConnection } from "./saml-connections.js";
import { rotateScimToken } from "./scim-tokens.js";

/** An organization's id by its id or slug. */
async function resolveOrg(app: CommandApp, ref: string): Promise<{ id: string; slug: string }> {
  const db = app.ctx.store.db;
  const orgs = membershipsOf(app.ctx);
  const o = (await orgs.findOrganization(db, ref)) ?? (await orgs.findOrganizationBySlug(db, ref));
  if (!o) throw new CommandError(`no organization ${ref} (give its id or slug; authsvc orgs list shows them)`);
  return o;
}

/** The metadata XML from a file or an http(s) URL (10 s at most). */
async function readMetadata(source: string): Promise<string> {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => { throw new CommandError(`could not fetch ${source}: ${err.message}`); });
    if (!res.ok) throw new CommandError(`could not fetch ${source}: HTTP ${res.status}`);
    return res.text();
  }
  return readFile(source, "utf8").catch(() => { throw new CommandError(`could not read ${source}`, 2); });
}

const refusals = async <T>(work: () => Promise<T>): Promise<T> => {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError) throw new CommandError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
    throw err;
  }
};

/** `authsvc orgs sso add | list | remove`: the organization's SAML connections. */
export const ssoConnectionCommands: CommandSpec = {
  name: "sso", under: "orgs", description: "the organization's enterprise sign-in connections (SAML)",
  commands: [
    {
      name: "add", description: "add a SAML connection from the IdP's metadata", arguments: [{ name: "<org>", description: "id or slug" }],
      options: [
        { flags: "--saml-metadata <file-or-url>", description: "the IdP's SAML metadata (a file, or an http(s) URL)", required: true },
        { flags: "--idp-initiated", description: "also accept sign-ins the IdP starts (no AuthnRequest of ours)" },
      ],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const source = String(run.flags.samlMetadata);
        // SAML's XML libraries load with the command that needs them, not with every command.
        const [{ readIdpMetadata }, { acsUrl, spEntityId }] = await Promise.all([import("./saml-metadata.js"), import("./saml-sign-in.js")]);
        const metadata = await refusals(async () => readIdpMetadata(await readMetadata(source)));
        const c = await refusals(() => addSamlConnection(app.ctx, o.id, { metadata, source, idpInitiated: run.flags.idpInitiated === true, actor: "cli" }));
        const sp = { entityId: spEntityId(app.ctx.config, c.id), acsUrl: acsUrl(app.ctx.config, c.id), metadataUrl: spEntityId(app.ctx.config, c.id) };
        if (run.flags.json) return run.json({ connection: { ...c, sp } });
        run.out(`added SAML connection ${c.id} (${c.thirdPartyId}) to ${o.slug}\nIdP: ${c.idpEntityId}\ngive the IdP: entity id / metadata ${sp.entityId}\n              ACS URL ${sp.acsUrl}`);
      }),
    },
    {
      name: "list", description: "the organization's connections", arguments: [{ name: "<org>", description: "id or slug" }],
      action: (run) => run.withApp(async (app) => {
        const list = await listConnections(app.ctx, (await resolveOrg(app, run.args[0])).id);
        if (run.flags.json) return run.json({ connections: list });
        run.out(list.length ? list.map((c) => `${c.id}  ${c.kind}  ${c.idpEntityId}${c.idpInitiated ? "  idp-initiated" : ""}`).join("\n") : "no connections");
      }),
    },
    {
      name: "remove", description: "remove a connection (its people keep their accounts)", arguments: [{ name: "<org>", description: "id or slug" }, { name: "<connection-id>" }],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        await refusals(() => removeConnection(app.ctx, o.id, run.args[1], "cli"));
        if (run.flags.json) return run.json({ removed: run.args[1] });
        run.out(`removed connection ${run.args[1]}`);
      }),
    },
  ],
};

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
