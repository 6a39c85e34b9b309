import { createHash } from "node:crypto";
import { defineEventHandler, getRequestHeader, getRouterParam, setResponseHeaders, setResponseStatus, type EventHandler } from "h3";
import { AuthError } from "../core/errors.js";
import dashboardCss from "./assets/dashboard.css?raw";
import { DASHBOARD_PATH } from "./kit.js";

interface Asset { body: Buffer; type: string; etag: string }

/** The dashboard's static files (bundled as text, hashed once at start), served under /admin/_assets. */
const assets = new Map<string, Asset>(Object.entries({ "dashboard.css": dashboardCss }).map(([name, text]) => {
  const body = Buffer.from(text, "utf8");
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"`;
  return [name, { body, type: name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8", etag }];
}));

/** The URL of a dashboard asset, with its content hash so a new release is never served stale. */
export function dashboardAssetUrl(name: string): string {
  const a = assets.get(name);
  if (!a) throw new Error(`no dashboard asset named ${name}`);
  return `${DASHBOARD_PATH}/_assets/${name}?v=${a.etag.slice(1, -1)}`;
}

/** GET /admin/_assets/:name (no session needed: the sign-in page uses the stylesheet too). */
export function serveDashboardAsset(): EventHandler {
  return defineEventHandler((event) => {
    const a = assets.get(getRouterParam(event, "name") ?? "");
    if (!a) throw new AuthError("NOT_FOUND", "Not Found");
    setResponseHeaders(event, { "content-type": a.type, "cache-control": "no-cache", etag: a.etag, "cross-origin-resource-policy": "same-origin" });
    if (getRequestHeader(event, "if-none-match") === a.etag) {
      setResponseStatus(event, 304);
      return "";
    }
    return a.body;
  });
}
