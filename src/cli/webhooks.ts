import { Command } from "commander";
import { AuthError } from "../core/errors.js";
import { addEndpoint, disableEndpointByOperator, enableEndpoint, listDeliveryViews, listEndpointViews, removeEndpoint, replayDelivery, type DeliveryView } from "../webhooks/endpoints.js";
import { checkSecret } from "../webhooks/settings.js";
import { printJson, withApp } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";

const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

/** A refusal of the webhooks room (bad URL, unknown id) as the CLI says it: exit 1, no stack. */
async function refusalsAsCliErrors<T>(fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (err) {
    if (err instanceof AuthError) throw new CliError(err.message);
    throw err;
  }
}

function deliveryLine(d: DeliveryView): string {
  const last = d.lastStatus !== null ? `HTTP ${d.lastStatus}` : d.lastError ?? "-";
  const next = d.status === "pending" ? `  next ${iso(d.nextAttemptAt)}` : "";
  return `${d.id}  ${d.type}  ${d.status}  attempts ${d.attempts}  last ${last}${next}  created ${iso(d.createdAt)}${d.replayOf ? `  replay of ${d.replayOf}` : ""}`;
}

/** `authsvc webhooks add|list|remove|enable|disable|deliveries|replay|secret`: the admin API's webhook operations. */
export function webhooksCommand(io: CliIO): Command {
  const webhooks = new Command("webhooks").description("webhook endpoints, their delivery log and replays (docs/webhooks.md)");
  const sub = (name: string, desc: string) => addAdminSubcommand(webhooks, name, desc);
  sub("add", "register an endpoint; prints its whsec_ secret (shown this once)")
    .requiredOption("--url <url>", "where deliveries are POSTed")
    .option("--events <list>", "comma-separated event types, or * for all", "*")
    .option("--description <text>", "a note for operators")
    .option("--secret <whsec>", "use this whsec_ secret instead of a new one")
    .action(async (flags) => withApp(flags, io, (app) => refusalsAsCliErrors(async () => {
      const e = await addEndpoint(app.ctx, { url: flags.url, events: flags.events, description: flags.description, secret: flags.secret });
      if (flags.json) return printJson(io, e);
      io.out(`added webhook endpoint ${e.id} for ${e.url} (events: ${e.events === "*" ? "*" : e.events.join(",")})`);
      io.out(`secret: ${e.secret}`);
      io.out("keep the secret with the app that verifies the deliveries; it is not shown again");
    })));
  sub("list", "list the endpoints (never their secrets)")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listEndpointViews(app.ctx);
      if (flags.json) return printJson(io, { endpoints: list });
      if (list.length === 0) return io.out("no webhook endpoints");
      for (const e of list) {
        const state = e.enabled ? "enabled" : `DISABLED ${iso(e.disabledAt)} (${e.disabledReason})`;
        io.out(`${e.id}  ${e.url}  events ${e.events === "*" ? "*" : e.events.join(",")}  ${e.source}  ${state}  failures in a row ${e.failureStreak}`);
      }
    }));
  sub("remove", "remove an endpoint and its delivery log")
    .argument("<id>", "the endpoint's id")
    .action(async (id: string, flags) => withApp(flags, io, (app) => refusalsAsCliErrors(async () => {
      await removeEndpoint(app.ctx, id);
      if (flags.json) return printJson(io, { deleted: id });
      io.out(`removed webhook endpoint ${id}`);
    })));
  sub("enable", "turn a disabled endpoint back on")
    .argument("<id>", "the endpoint's id")
    .action(async (id: string, flags) => withApp(flags, io, (app) => refusalsAsCliErrors(async () => {
      const e = await enableEndpoint(app.ctx, id, "cli");
      if (flags.json) return printJson(io, { endpoint: e });
      io.out(`enabled webhook endpoint ${id}`);
    })));
  sub("disable", "turn an endpoint off by hand (its events wait, queued, until it is enabled)")
    .argument("<id>", "the endpoint's id")
    .action(async (id: string, flags) => withApp(flags, io, (app) => refusalsAsCliErrors(async () => {
      const e = await disableEndpointByOperator(app.ctx, id, "cli");
      if (flags.json) return printJson(io, { endpoint: e });
      io.out(`disabled webhook endpoint ${id}`);
    })));
  sub("deliveries", "the delivery log, newest first: status codes, attempts, next attempt, last error")
    .option("--endpoint <id>", "only this endpoint's deliveries")
    .option("--status <status>", "pending, delivered or failed")
    .option("--limit <n>", "how many", "50")
    .action(async (flags) => withApp(flags, io, (app) => refusalsAsCliErrors(async () => {
      if (!/^\d{1,4}$/.test(flags.limit)) throw new CliError("--limit must be a whole number from 1 to 1000", 2);
      const list = await listDeliveryViews(app.ctx, { endpointId: flags.endpoint, status: flags.status, limit: Number(flags.limit) });
      if (flags.json) return printJson(io, { deliveries: list });
      if (list.length === 0) return io.out("no webhook deliveries");
      for (const d of list) io.out(deliveryLine(d));
    })));
  sub("replay", "send a logged delivery again (same webhook-id and payload); a running serve sends it")
    .argument("<delivery-id>", "the delivery's id (from `authsvc webhooks deliveries`)")
    .action(async (id: string, flags) => withApp(flags, io, (app) => refusalsAsCliErrors(async () => {
      const d = await replayDelivery(app.ctx, id, "cli");
      if (flags.json) return printJson(io, { delivery: d });
      io.out(`queued ${d.id} (replay of ${id}, webhook-id ${d.messageId})`);
    })));
  webhooks.addCommand(new Command("secret").description("print a new whsec_ secret (for an endpoint of the webhooks setting)")
    .action(() => { io.out(checkSecret(undefined)); }));
  return webhooks;
}
