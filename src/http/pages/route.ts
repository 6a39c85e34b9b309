import type { EventHandler } from "h3";
import type { Config } from "../../config/types.js";
import type { HttpDeps } from "../deps.js";

/**
 * One row of the pages' route table, beside the API's: paths are absolute (hosted pages under the
 * website base path, development pages at the root). `local` pages answer loopback clients only.
 */
export interface PageRoute {
  method: "GET" | "POST";
  path: string;
  handler: (deps: HttpDeps) => EventHandler;
  local?: boolean;
}

/**
 * A room's hosted pages: GET routes under the website base path ("" is the base itself), in the
 * order given, while the hosted pages are on; none otherwise (the API's plain 404).
 */
export function hostedPageRoutes(config: Readonly<Config>, pages: Readonly<Record<string, PageRoute["handler"]>>): PageRoute[] {
  if (!config.hostedPages) return [];
  return Object.entries(pages).map(([path, handler]) => ({ method: "GET", path: `${config.websiteBasePath}${path}`, handler }));
}
