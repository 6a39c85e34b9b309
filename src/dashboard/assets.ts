import type { EventHandler } from "h3";
import { createAssetTable } from "../http/pages/assets.js";
import dashboardCss from "./assets/dashboard.css?raw";
import { DASHBOARD_PATH } from "./kit.js";

/** The dashboard's static files (bundled as text), served under /admin/_assets. */
const assets = createAssetTable({ "dashboard.css": dashboardCss });

/** The URL of a dashboard asset, with its content hash so a new release is never served stale. */
export function dashboardAssetUrl(name: string): string {
  return assets.url(`${DASHBOARD_PATH}/_assets`, name);
}

/** GET /admin/_assets/:name (no session needed: the sign-in page uses the stylesheet too). */
export function serveDashboardAsset(): EventHandler {
  return assets.serve();
}
