import type { EventHandler } from "h3";
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
