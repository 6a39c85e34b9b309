import { defineEventHandler, type EventHandler } from "h3";

/**
 * A route's handler whose module is imported on the route's first request, not at start: a room
 * still declares the route (its table row names what `load` imports), and a process that never
 * serves it never parses the module nor what that imports (SAML's XML libraries, SCIM, the CDI's
 * handlers...). `load` resolves to the handler factory (deps => handler); the handler is made once,
 * on first use. An import that fails (a broken install) fails that request and is tried again on the
 * next. esbuild puts each such module in a chunk of its own (scripts/build.mjs); docs/performance.md
 * ("Memory") lists what loads this way.
 */
export function lazy<D>(load: () => Promise<(deps: D) => EventHandler>): (deps: D) => EventHandler {
  return (deps) => {
    let handler: Promise<EventHandler> | undefined;
    const ready = () => (handler ??= load().then((make) => make(deps), (err: unknown) => { handler = undefined; throw err; }));
    return defineEventHandler(async (event) => (await ready())(event));
  };
}
