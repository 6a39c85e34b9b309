import { CommandError, type CommandApp, type CommandRun, type CommandSpec } from "../core/commands.js";
import { membershipsOf } from "../core/memberships.js";
import { readFile } from "node:fs/promises";
import { AuthError } from "../core/errors.js";
import { addOidcConnection, addSamlConnection, listConnections, removeConnection, isUrl, type ConnectionView } from "./saml-connections.js";
import { checkIssuer } from "./oidc-connections.js";
import { fetchMetadata } from "./metadata-fetch.js";
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
  if (isUrl(source)) return fetchMetadata(source).catch((err: Error) => { throw new CommandError(`could not fetch ${source}: ${err.message}`); });
  return readFile(source, "utf8").catch(() => { throw new CommandError(`could not read ${source}`, 2); });
}

const refusals = async <T>(work: () => Promise<T>): Promise<T> => {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError) throw new CommandError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
    throw err;
  }
};

/** The OpenID client secret: --client-secret-file, piped in with --client-secret-stdin, or --client-secret (seen by `ps`: the other two are better). */
async function clientSecret(run: CommandRun): Promise<string> {
  const given = [run.flags.clientSecret !== undefined, run.flags.clientSecretFile !== undefined, run.flags.clientSecretStdin === true].filter(Boolean).length;
  if (given !== 1) throw new CommandError("give the client secret once: --client-secret-file <file>, --client-secret-stdin, or --client-secret <secret>", 2);
  let secret: string;
  if (run.flags.clientSecretFile !== undefined) secret = await readFile(String(run.flags.clientSecretFile), "utf8").catch(() => { throw new CommandError(`could not read ${String(run.flags.clientSecretFile)}`, 2); });
  else if (run.flags.clientSecretStdin === true) secret = await run.readPassword();
  else secret = String(run.flags.clientSecret);
  secret = secret.trim();
  if (!secret) throw new CommandError("the client secret is empty", 2);
  return secret;
}

/** One line of `orgs sso list`: id, kind, IdP, and what needs the operator's eye. */
function listLine(c: ConnectionView): string {
  const extra = [c.idpInitiated ? "idp-initiated" : "", c.clientId ? `client ${c.clientId}` : "", c.metadataError ? `metadata refresh failed: ${c.metadataError}` : ""].filter(Boolean);
  return [c.id, c.kind, c.idpEntityId, ...extra].join("  ");
}

/** `authsvc orgs sso add | list | remove`: the organization's SAML and OpenID connections. */
export const ssoConnectionCommands: CommandSpec = {
  name: "sso", under: "orgs", description: "the organization's enterprise sign-in connections (SAML, OpenID Connect)",
  commands: [
    {
      name: "add", description: "add a SAML connection from the IdP's metadata, or an OpenID Connect one from its issuer", arguments: [{ name: "<org>", description: "id or slug" }],
      options: [
        { flags: "--saml-metadata <file-or-url>", description: "SAML: the IdP's metadata (a file, or an http(s) URL, then read again every --sso-metadata-refresh)" },
        { flags: "--idp-initiated", description: "SAML: also accept sign-ins the IdP starts (no AuthnRequest of ours)" },
        { flags: "--oidc-issuer <url>", description: "OpenID Connect: the provider's issuer (its discovery document is read from <url>/.well-known/openid-configuration)" },
        { flags: "--client-id <id>", description: "OpenID Connect: authsvc's client id at the provider" },
        { flags: "--client-secret-file <file>", description: "OpenID Connect: a file holding the client secret (stored encrypted, never printed)" },
        { flags: "--client-secret-stdin", description: "OpenID Connect: read the client secret from standard input" },
        { flags: "--client-secret <secret>", description: "OpenID Connect: the client secret itself (visible to other accounts in the process list: prefer the file or stdin)" },
        { flags: "--scope <scopes>", description: "OpenID Connect: the scopes to ask for, space- or comma-separated (default: openid email profile; add groups where the provider needs it for the groups claim)" },
      ],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        if ((run.flags.samlMetadata === undefined) === (run.flags.oidcIssuer === undefined)) throw new CommandError("give either --saml-metadata <file-or-url> or --oidc-issuer <url>", 2);
        if (run.flags.oidcIssuer !== undefined) {
          if (run.flags.idpInitiated === true) throw new CommandError("--idp-initiated is for SAML connections", 2);
          if (typeof run.flags.clientId !== "string" || !run.flags.clientId.trim()) throw new CommandError("--oidc-issuer needs --client-id", 2);
          const secret = await clientSecret(run);
          const scope = typeof run.flags.scope === "string" ? run.flags.scope.split(/[\s,]+/).filter(Boolean) : ["openid", "email", "profile"];
          if (!scope.includes("openid")) throw new CommandError("--scope must include openid", 2);
          const issuer = await refusals(() => checkIssuer(String(run.flags.oidcIssuer)));
          const c = await refusals(() => addOidcConnection(app.ctx, o.id, { issuer, clientId: String(run.flags.clientId).trim(), clientSecret: secret, scope, actor: "cli" }));
          // The SDKs' and the hosted pages' callback for this provider (their redirectURIOnProviderDashboard).
          const redirect = `${app.ctx.config.websiteUrl.replace(/\/+$/, "")}${app.ctx.config.websiteBasePath}/callback/${c.thirdPartyId}`;
          if (run.flags.json) return run.json({ connection: { ...c, redirectUri: redirect } });
          run.out(`added OpenID Connect connection ${c.id} (${c.thirdPartyId}) to ${o.slug}\nissuer: ${issuer}\nregister as redirect URI at the provider: ${redirect}`);
          return;
        }
        for (const f of ["clientId", "clientSecret", "clientSecretFile", "clientSecretStdin", "scope"]) if (run.flags[f] !== undefined) throw new CommandError("--client-id, --client-secret* and --scope are for --oidc-issuer connections", 2);
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
      name: "list", description: "the organization's connections (and a failed metadata refresh)", arguments: [{ name: "<org>", description: "id or slug" }],
      action: (run) => run.withApp(async (app) => {
        const list = await listConnections(app.ctx, (await resolveOrg(app, run.args[0])).id);
        if (run.flags.json) return run.json({ connections: list });
        run.out(list.length ? list.map(listLine).join("\n") : "no connections");
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
