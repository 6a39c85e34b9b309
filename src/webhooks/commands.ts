import { CommandError, type CommandRun, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { addEndpoint, disableEndpointByOperator, enableEndpoint, listDeliveryViews, listEndpointViews, removeEndpoint, replayDelivery, type DeliveryView } from "./endpoints.js";
import { checkSecret } from "./settings.js";

const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

/** A refusal of this room (bad URL, unknown id) as the operator reads it: exit 1, the message, no stack. */
async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (err) {
    if (err instanceof AuthError) throw new CommandError(err.message);
    throw err;
  }
}

function deliveryLine(d: DeliveryView): string {
  const last = d.lastStatus !== null ? `HTTP ${d.lastStatus}` : d.lastError ?? "-";
  const next = d.status === "pending" ? `  next ${iso(d.nextAttemptAt)}` : "";
  return `${d.id}  ${d.type}  ${d.status}  attempts ${d.attempts}  last ${last}${next}  created ${iso(d.createdAt)}${d.replayOf ? `  replay of ${d.replayOf}` : ""}`;
}

const endpointId = [{ name: "<id>", description: "the endpoint's id" }];
const str = (run: CommandRun, name: string) => run.flags[name] as string | undefined;

/** `authsvc webhooks add|list|remove|enable|disable|deliveries|replay|secret`: the admin API's webhook operations. */
export const webhookCommands: CommandSpec = {
  name: "webhooks",
  description: "webhook endpoints, their delivery log and replays (docs/webhooks.md)",
  after: "admins",
  commands: [
    {
      name: "add",
      description: "register an endpoint; prints its whsec_ secret (shown this once)",
      options: [
        { flags: "--url <url>", description: "where deliveries are POSTed", required: true },
        { flags: "--events <list>", description: "comma-separated event types, or * for all", default: "*" },
        { flags: "--description <text>", description: "a note for operators" },
        { flags: "--secret <whsec>", description: "use this whsec_ secret instead of a new one" },
      ],
      action: (run) => run.withApp((app) => refusals(async () => {
        const e = await addEndpoint(app.ctx, { url: run.flags.url, events: run.flags.events, description: run.flags.description, secret: run.flags.secret });
        if (run.flags.json) return run.json(e);
        run.out(`added webhook endpoint ${e.id} for ${e.url} (events: ${e.events === "*" ? "*" : e.events.join(",")})`);
        run.out(`secret: ${e.secret}`);
        run.out("keep the secret with the app that verifies the deliveries; it is not shown again");
      })),
    },
    {
      name: "list",
      description: "list the endpoints (never their secrets)",
      action: (run) => run.withApp(async (app) => {
        const list = await listEndpointViews(app.ctx);
        if (run.flags.json) return run.json({ endpoints: list });
        if (list.length === 0) return run.out("no webhook endpoints");
        for (const e of list) {
          const state = e.enabled ? "enabled" : `DISABLED ${iso(e.disabledAt)} (${e.disabledReason})`;
          run.out(`${e.id}  ${e.url}  events ${e.events === "*" ? "*" : e.events.join(",")}  ${e.source}  ${state}  failures in a row ${e.failureStreak}`);
        }
      }),
    },
    {
      name: "remove",
      description: "remove an endpoint and its delivery log",
      arguments: endpointId,
      action: (run) => run.withApp((app) => refusals(async () => {
        const id = run.args[0];
        await removeEndpoint(app.ctx, id);
        if (run.flags.json) return run.json({ deleted: id });
        run.out(`removed webhook endpoint ${id}`);
      })),
    },
    {
      name: "enable",
      description: "turn a disabled endpoint back on",
      arguments: endpointId,
      action: (run) => run.withApp((app) => refusals(async () => {
        const id = run.args[0];
        const e = await enableEndpoint(app.ctx, id, "cli");
        if (run.flags.json) return run.json({ endpoint: e });
        run.out(`enabled webhook endpoint ${id}`);
      })),
    },
    {
      name: "disable",
      description: "turn an endpoint off by hand (its events wait, queued, until it is enabled)",
      arguments: endpointId,
      action: (run) => run.withApp((app) => refusals(async () => {
        const id = run.args[0];
        const e = await disableEndpointByOperator(app.ctx, id, "cli");
        if (run.flags.json) return run.json({ endpoint: e });
        run.out(`disabled webhook endpoint ${id}`);
      })),
    },
    {
      name: "deliveries",
      description: "the delivery log, newest first: status codes, attempts, next attempt, last error",
      options: [
        { flags: "--endpoint <id>", description: "only this endpoint's deliveries" },
        { flags: "--status <status>", description: "pending, delivered or failed" },
        { flags: "--limit <n>", description: "how many", default: "50" },
      ],
      action: (run) => run.withApp((app) => refusals(async () => {
        const limit = str(run, "limit")!;
        if (!/^\d{1,4}$/.test(limit)) throw new CommandError("--limit must be a whole number from 1 to 1000", 2);
        const list = await listDeliveryViews(app.ctx, { endpointId: str(run, "endpoint"), status: str(run, "status"), limit: Number(limit) });
        if (run.flags.json) return run.json({ deliveries: list });
        if (list.length === 0) return run.out("no webhook deliveries");
        for (const d of list) run.out(deliveryLine(d));
      })),
    },
    {
      name: "replay",
      description: "send a logged delivery again (same webhook-id and payload); a running serve sends it",
      arguments: [{ name: "<delivery-id>", description: "the delivery's id (from `authsvc webhooks deliveries`)" }],
      action: (run) => run.withApp((app) => refusals(async () => {
        const id = run.args[0];
        const d = await replayDelivery(app.ctx, id, "cli");
        if (run.flags.json) return run.json({ delivery: d });
        run.out(`queued ${d.id} (replay of ${id}, webhook-id ${d.messageId})`);
      })),
    },
    {
      name: "secret",
      description: "print a new whsec_ secret (for an endpoint of the webhooks setting)",
      layout: "bare",
      action: async (run) => { run.out(checkSecret(undefined)); },
    },
  ],
};
