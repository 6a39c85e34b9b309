import { CommandError, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { checkDiscovery } from "./discovery-check.js";
import { createClient, createResource, deleteClient, deleteResource, listClientViews, listResourceViews } from "./clients.js";

/** A refusal (bad input, unknown id) as the operator reads it: exit 1, the message, no stack. */
async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (err) {
    if (err instanceof AuthError) throw new CommandError(err.message);
    throw err;
  }
}
const csv = (v: unknown) => (typeof v !== "string" ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean));

const clients: CommandSpec = {
  name: "clients",
  description: "apps that sign people in with this server, or machine clients",
  commands: [
    {
      name: "create",
      description: "register a client; prints its client_id (and a confidential client's secret, shown this once)",
      options: [
        { flags: "--name <name>", description: "shown on the consent page", required: true },
        { flags: "--redirect-uri <uris>", description: "comma-separated redirect URIs (https; http only on loopback, any port; or com.example.app:/callback)" },
        { flags: "--confidential", description: "a server-side client with a secret (default: public, PKCE only)" },
        { flags: "--scopes <list>", description: "OpenID scopes it may ask for (default: openid,email,offline_access)" },
        { flags: "--resources <urls>", description: "comma-separated registered resources it may ask tokens for" },
        { flags: "--grant-types <list>", description: "authorization_code,refresh_token (default) and/or client_credentials" },
      ],
      action: (run) => run.withApp((app) => refusals(async () => {
        const f = run.flags;
        const c = await createClient(app.ctx, {
          name: f.name, redirectUris: csv(f.redirectUri), type: f.confidential ? "confidential" : "public",
          scopes: csv(f.scopes), resources: csv(f.resources), grantTypes: csv(f.grantTypes),
        }, "cli");
        if (f.json) return run.json(c);
        run.out(`created ${c.type} client ${c.name}`);
        run.out(`client_id: ${c.clientId}`);
        if (c.clientSecret) {
          run.out(`client_secret: ${c.clientSecret}`);
          run.out("keep the secret with the app; it is not shown again");
        }
      })),
    },
    {
      name: "list",
      description: "list the clients (never their secrets)",
      action: (run) => run.withApp(async (app) => {
        const list = await listClientViews(app.ctx);
        if (run.flags.json) return run.json({ clients: list });
        if (list.length === 0) return run.out("no OAuth clients");
        for (const c of list) run.out(`${c.clientId}  ${c.name}  ${c.type}  ${c.grantTypes.join(",")}  ${c.redirectUris.join(" ")}${c.resources.length ? `  resources ${c.resources.join(" ")}` : ""}`);
      }),
    },
    {
      name: "delete",
      description: "delete a client and every code, token and grant issued to it",
      arguments: [{ name: "<client-id>", description: "its client_id" }],
      action: (run) => run.withApp((app) => refusals(async () => {
        const id = run.args[0];
        await deleteClient(app.ctx, id, "cli");
        if (run.flags.json) return run.json({ deleted: id });
        run.out(`deleted OAuth client ${id}`);
      })),
    },
  ],
};

const resources: CommandSpec = {
  name: "resources",
  description: "APIs and MCP servers tokens are issued for (the `resource` parameter, the token's aud)",
  commands: [
    {
      name: "create",
      description: "register a resource and its scopes",
      arguments: [{ name: "<url>", description: "the resource indicator, e.g. https://mcp.example.com/mcp" }],
      options: [
        { flags: "--name <name>", description: "shown on the consent page (default: its host)" },
        { flags: "--scopes <list>", description: "comma-separated scopes it understands" },
      ],
      action: (run) => run.withApp((app) => refusals(async () => {
        const r = await createResource(app.ctx, { resource: run.args[0], name: run.flags.name, scopes: csv(run.flags.scopes) ?? [] }, "cli");
        if (run.flags.json) return run.json(r);
        run.out(`created resource ${r.resource}${r.scopes.length ? ` (scopes: ${r.scopes.join(", ")})` : ""}`);
      })),
    },
    {
      name: "list",
      description: "list the resources",
      action: (run) => run.withApp(async (app) => {
        const list = await listResourceViews(app.ctx);
        if (run.flags.json) return run.json({ resources: list });
        if (list.length === 0) return run.out("no OAuth resources");
        for (const r of list) run.out(`${r.resource}  ${r.name}  scopes ${r.scopes.join(",") || "-"}`);
      }),
    },
    {
      name: "delete",
      description: "remove a resource (tokens already issued for it live out their lifetime)",
      arguments: [{ name: "<url>", description: "the resource indicator" }],
      action: (run) => run.withApp((app) => refusals(async () => {
        const url = run.args[0];
        await deleteResource(app.ctx, url, "cli");
        if (run.flags.json) return run.json({ deleted: url });
        run.out(`deleted resource ${url}`);
      })),
    },
  ],
};

const mark = { ok: "ok     ", warning: "warning", missing: "MISSING" } as const;

/** `authsvc oauth check <url>`: walks the discovery chain over the network; it opens no database. */
const check: CommandSpec = {
  name: "check",
  description: "walk an MCP client's discovery chain from a server URL and say what is missing, with the fix (exit 1 when something required is)",
  layout: "bare",
  arguments: [{ name: "<url>", description: "the MCP server's (or API's) URL, e.g. https://mcp.example.com/mcp" }],
  options: [{ flags: "--json", description: "print the report as JSON" }],
  action: async (run) => {
    const report = await checkDiscovery(run.args[0]);
    if (run.flags.json) run.json(report);
    else {
      for (const c of report.checks) run.out(`${mark[c.status]}  ${c.detail}${c.fix ? `\n         fix: ${c.fix}` : ""}`);
      if (report.ok) run.out("the discovery chain is complete");
    }
    if (!report.ok) throw new CommandError("the discovery chain is incomplete: clients fail at the first MISSING step");
  },
};

/** `authsvc oauth clients|resources …` and `authsvc oauth check <url>`: what the admin API's /oauth routes do (docs/oauth-provider.md). */
export const oauthCommands: CommandSpec = {
  name: "oauth",
  description: "the OAuth provider's clients and resources (docs/oauth-provider.md)",
  after: "orgs",
  commands: [clients, resources, check],
};
