import { defineEventHandler, setResponseStatus, type EventHandler, type H3Event } from "h3";
import type { Config } from "../config/types.js";
import { readHeader } from "./headers.js";

/**
 * An h3 layer whose `match` decides per request whether the handler runs at all (h3 passes the
 * event to it): a request it does not concern costs one function call, no promise.
 */
export interface HttpLayer { match: (path: string, event?: H3Event) => boolean; handler: EventHandler }

const LOOPBACK_HOST = /^(localhost|[a-z0-9.-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/** A check that a request's Host header names loopback or the public URL's host (parsed once, here). */
export function createHostCheck(config: Readonly<Config>): (event: H3Event) => boolean {
  const publicHost = new URL(config.publicUrl).host;
  // A client sends the same Host on every request: the last answer is kept, so the pattern runs
  // once per new Host header, not once per request.
  let lastHost: string | undefined;
  let lastAnswer = false;
  return (event) => {
    const raw = readHeader(event, "host") ?? "";
    if (raw === lastHost) return lastAnswer;
    const host = raw.toLowerCase();
    const answer = LOOPBACK_HOST.test(host) || host === publicHost;
    lastHost = raw;
    lastAnswer = answer;
    return answer;
  };
}

/** True when the request's Host header names loopback or the public URL's host. */
export function isKnownHost(event: H3Event, config: Readonly<Config>): boolean {
  return createHostCheck(config)(event);
}

/**
 * Development mode answers tokens in responses (reset and verification tokens, the inbox), so a web
 * page that rebinds its own name to 127.0.0.1 could drive the API with the developer's browser and
 * read them. The browser sends that page's name as Host, so every route (API, pages, health)
 * answers only a Host that names loopback or the configured public host; anything else is 403.
 * Production keeps no such rule: it sits behind a proxy whose names the operator chooses.
 */
export function devHostGuard(config: Readonly<Config>): HttpLayer | undefined {
  if (config.mode !== "development") return undefined;
  const isKnown = createHostCheck(config);
  return {
    // h3 calls the handler only for a Host it must refuse: every other request passes this layer by
    // on the match alone, without a handler call and an awaited promise.
    match: (_path, event) => event !== undefined && !isKnown(event),
    handler: defineEventHandler((event) => {
      setResponseStatus(event, 403);
      return { message: "development mode answers only requests whose Host is loopback (localhost, 127.0.0.1, [::1]) or the public URL's host" };
    }),
  };
}
