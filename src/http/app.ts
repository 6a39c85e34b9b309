import { createApp, createRouter, defineEventHandler, setResponseHeaders, toNodeListener, type App as H3App } from "h3";
import type { HttpDeps } from "./deps.js";
import { sendError } from "./errors.js";
import { routes } from "./routes.js";

/** Builds the h3 app from the route table. */
export function createHttpApp(deps: HttpDeps): H3App {
  const logger = deps.ctx.logger;
  const app = createApp({
    onError: (err, event) => {
      if (event.handled) return;
      const body = sendError(event, err, logger);
      setResponseHeaders(event, { "content-type": "application/json; charset=utf-8" });
      return event.node.res.end(JSON.stringify(body));
    },
  });
  // Baseline headers on every response (security-bar 58).
  app.use(defineEventHandler((event) => {
    setResponseHeaders(event, {
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    });
  }));
  const router = createRouter();
  const base = deps.ctx.config.apiBasePath;
  for (const r of routes) {
    const handler = r.handler(deps);
    const paths = r.root ? [r.path] : [base + r.path, `${base}/public${r.path}`];
    for (const p of paths) router.add(p, handler, r.method.toLowerCase() as "get" | "post");
  }
  app.use(router);
  return app;
}

export { toNodeListener };
