import { defineEventHandler, setResponseStatus, type EventHandler, type H3Event } from "h3";
import type { Config } from "../config/types.js";
import { readHeader } from "./headers.js";

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
export function devHostGuard(config: Readonly<Config>): EventHandler | undefined {
  if (config.mode !== "development") return undefined;
  const isKnown = createHostCheck(config);
  return defineEventHandler((event) => {
    if (isKnown(event)) return;
    setResponseStatus(event, 403);
    return { message: "development mode answers only requests whose Host is loopback (localhost, 127.0.0.1, [::1]) or the public URL's host" };
  });
}
