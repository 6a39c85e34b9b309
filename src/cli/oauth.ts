import { Command } from "commander";
import { printJson, withApp } from "./context.js";
import { CliError, type CliIO } from "./io.js";
import { addAdminSubcommand } from "./options.js";
import { AuthError } from "../core/errors.js";
import { checkDiscovery } from "../oauth-provider/discovery-check.js";
import { createClient, createResource, deleteClient, deleteResource, listClientViews, listResourceViews } from "../oauth-provider/clients.js";

/** A refusal (bad input, unknown id) as the CLI says it: exit 1, the message, no stack. */
async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (err) {
    if (err instanceof AuthError) throw new CliError(err.message);
    throw err;
  }
}
const csv = (v: string | undefined) => (v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean));

/** `authsvc oauth clients|resources …` and `authsvc oauth check <url>`: what the admin API's /oauth routes do (docs/oauth-provider.md). */
export function oauthCommand(io: CliIO): Command {
  const oauth = new Command("oauth").description("the OAuth provider's clients and resources (docs/oauth-provider.md)");
  const clients = new Command("clients").description("apps that sign people in with this server, or machine clients");
  oauth.addCommand(clients);
  addAdminSubcommand(clients, "create", "register a client; prints its client_id (and a confidential client's secret, shown this once)")
    .requiredOption("--name <name>", "shown on the consent page")
    .option("--redirect-uri <uris>", "comma-separated redirect URIs (https; http only on loopback, any port; or com.example.app:/callback)")
    .option("--confidential", "a server-side client with a secret (default: public, PKCE only)")
    .option("--scopes <list>", "OpenID scopes it may ask for (default: openid,email,offline_access)")
    .option("--resources <urls>", "comma-separated registered resources it may ask tokens for")
    .option("--grant-types <list>", "authorization_code,refresh_token (default) and/or client_credentials")
    .action(async (flags) => withApp(flags, io, (app) => refusals(async () => {
      const c = await createClient(app.ctx, {
        name: flags.name, redirectUris: csv(flags.redirectUri), type: flags.confidential ? "confidential" : "public",
        scopes: csv(flags.scopes), resources: csv(flags.resources), grantTypes: csv(flags.grantTypes),
      }, "cli");
      if (flags.json) return printJson(io, c);
      io.out(`created ${c.type} client ${c.name}`);
      io.out(`client_id: ${c.clientId}`);
      if (c.clientSecret) {
        io.out(`client_secret: ${c.clientSecret}`);
        io.out("keep the secret with the app; it is not shown again");
      }
    })));
  addAdminSubcommand(clients, "list", "list the clients (never their secrets)")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listClientViews(app.ctx);
      if (flags.json) return printJson(io, { clients: list });
      if (list.length === 0) return io.out("no OAuth clients");
      for (const c of list) io.out(`${c.clientId}  ${c.name}  ${c.type}  ${c.grantTypes.join(",")}  ${c.redirectUris.join(" ")}${c.resources.length ? `  resources ${c.resources.join(" ")}` : ""}`);
    }));
  addAdminSubcommand(clients, "delete", "delete a client and every code, token and grant issued to it")
    .argument("<client-id>", "its client_id")
    .action(async (id: string, flags) => withApp(flags, io, (app) => refusals(async () => {
      await deleteClient(app.ctx, id, "cli");
      if (flags.json) return printJson(io, { deleted: id });
      io.out(`deleted OAuth client ${id}`);
    })));

  const resources = new Command("resources").description("APIs and MCP servers tokens are issued for (the `resource` parameter, the token's aud)");
  oauth.addCommand(resources);
  addAdminSubcommand(resources, "create", "register a resource and its scopes")
    .argument("<url>", "the resource indicator, e.g. https://mcp.example.com/mcp")
    .option("--name <name>", "shown on the consent page (default: its host)")
    .option("--scopes <list>", "comma-separated scopes it understands")
    .action(async (url: string, flags) => withApp(flags, io, (app) => refusals(async () => {
      const r = await createResource(app.ctx, { resource: url, name: flags.name, scopes: csv(flags.scopes) ?? [] }, "cli");
      if (flags.json) return printJson(io, r);
      io.out(`created resource ${r.resource}${r.scopes.length ? ` (scopes: ${r.scopes.join(", ")})` : ""}`);
    })));
  addAdminSubcommand(resources, "list", "list the resources")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listResourceViews(app.ctx);
      if (flags.json) return printJson(io, { resources: list });
      if (list.length === 0) return io.out("no OAuth resources");
      for (const r of list) io.out(`${r.resource}  ${r.name}  scopes ${r.scopes.join(",") || "-"}`);
    }));
  addAdminSubcommand(resources, "delete", "remove a resource (tokens already issued for it live out their lifetime)")
    .argument("<url>", "the resource indicator")
    .action(async (url: string, flags) => withApp(flags, io, (app) => refusals(async () => {
      await deleteResource(app.ctx, url, "cli");
      if (flags.json) return printJson(io, { deleted: url });
      io.out(`deleted resource ${url}`);
    })));
  oauth.command("check")
    .description("walk an MCP client's discovery chain from a server URL and say what is missing, with the fix (exit 1 when something required is)")
    .argument("<url>", "the MCP server's (or API's) URL, e.g. https://mcp.example.com/mcp")
    .option("--json", "print the report as JSON")
    .action(async (url: string, flags: { json?: boolean }) => {
      const report = await checkDiscovery(url);
      if (flags.json) printJson(io, report);
      else {
        const mark = { ok: "ok     ", warning: "warning", missing: "MISSING" } as const;
        for (const c of report.checks) io.out(`${mark[c.status]}  ${c.detail}${c.fix ? `\n         fix: ${c.fix}` : ""}`);
        if (report.ok) io.out("the discovery chain is complete");
      }
      if (!report.ok) throw new CliError("the discovery chain is incomplete: clients fail at the first MISSING step");
    });
  return oauth;
}
