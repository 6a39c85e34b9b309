import type { Config } from "../../config/types.js";

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) or any other piece of the document. */
export type Json = { [k: string]: unknown };

/**
 * One area of the API (email/password, sessions, third party, the admin API ...): its paths, relative
 * to `prefix(config)`, and the schemas it adds to `components`. The document is the merge of all
 * areas, so a new area is one module added to the list in document.ts.
 */
export interface OpenApiArea {
  tag: { name: string; description: string };
  /** Where the area's paths are mounted, e.g. the API base path, or "" for the server root. */
  prefix(config: Readonly<Config>): string;
  paths: Record<string, Json>;
  schemas?: Record<string, Json>;
}

/** An area mounted under the API base path. */
export function apiArea(name: string, description: string, paths: Record<string, Json>, schemas?: Record<string, Json>): OpenApiArea {
  return { tag: { name, description }, prefix: (c) => c.apiBasePath, paths, schemas };
}
