import type { ServerResponse } from "node:http";
import { defineEventHandler, type EventHandler } from "h3";
import { readInboxVersion } from "../../core/dev-inbox.js";
import type { CoreContext } from "../../core/context.js";

/** The inbox's live feed: one poller for all open inboxes, Server-Sent Events to each. */
export interface DevMailFeed {
  handler: EventHandler;
  /** Ends every open stream (shutdown: a stream never finishes on its own). */
  close(): void;
}

const POLL_MS = 400;
const KEEPALIVE_MS = 15_000;

/**
 * GET /_dev/mail/events. The catcher may run in this process or in another `serve` writing to the
 * same database, so the feed watches the database (two small aggregate queries per tick, only while
 * an inbox is open) and sends `change` when mail arrives or goes or a token is issued or used; the
 * page then fetches what it shows again.
 */
export function createDevMailFeed(ctx: CoreContext): DevMailFeed {
  const clients = new Set<ServerResponse>();
  let version = "";
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const broadcast = (chunk: string) => { for (const res of clients) res.write(chunk); };
  const tick = async () => {
    try {
      const v = await readInboxVersion(ctx);
      if (v !== version) {
        version = v;
        broadcast(`event: change\ndata: ${v}\n\n`);
      }
    } catch (err) {
      ctx.logger.warn("dev inbox poll failed", { err: err as Error });
    }
    if (clients.size > 0 && !closed) timer = setTimeout(tick, POLL_MS);
    else timer = undefined;
  };
  const keepalive = setInterval(() => broadcast(": keep-alive\n\n"), KEEPALIVE_MS);
  keepalive.unref();

  const handler = defineEventHandler((event) => {
    const res = event.node.res;
    if (closed) { res.statusCode = 503; res.end(); return; }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      connection: "keep-alive",
    });
    if (event.method === "HEAD") { res.end(); return; } // headers only: no stream to keep open
    res.write(`retry: 1000\nevent: change\ndata: ${version}\n\n`);
    clients.add(res);
    res.on("close", () => clients.delete(res));
    if (!timer) timer = setTimeout(tick, 0);
  });

  return {
    handler,
    close: () => {
      closed = true;
      clearInterval(keepalive);
      if (timer) clearTimeout(timer);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
