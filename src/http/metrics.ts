import { defineEventHandler, setResponseHeader, type EventHandler } from "h3";
import type { MetricsSink } from "../util/metrics.js";

/**
 * Times every request and reports it when the response is done, labelled with the route pattern
 * h3 matched (never the raw path: unbounded label values would grow the registry without limit).
 * Cost per request: one closure and one listener.
 */
export function requestMetricsHook(metrics: MetricsSink): EventHandler {
  return defineEventHandler((event) => {
    const started = performance.now();
    const res = event.node.res;
    res.once("close", () => {
      // The router's catch-all ("/**", its last route: 404/405) is no route of the API.
      const matched = (event.context.matchedRoute as { path?: string } | undefined)?.path;
      const route = matched === undefined || matched === "/**" ? "unmatched" : matched;
      metrics.observeRequest(route, event.method, res.statusCode, (performance.now() - started) / 1000);
    });
  });
}

/** GET /metrics on the API port: the Prometheus text exposition. */
export function metricsHandler(endpoint: { render(): Promise<{ contentType: string; body: string }> }): EventHandler {
  return defineEventHandler(async (event) => {
    const { contentType, body } = await endpoint.render();
    setResponseHeader(event, "content-type", contentType);
    return body;
  });
}
