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
  /** Its path items; a function is given the parts the other areas declare (the ways to create a user). */
  paths: Record<string, Json | ((parts: DocumentParts) => Json)>;
  /** Its schemas; a function is given the shared ones (the User schema), for a schema built on them. */
  schemas?: Record<string, Json | ((shared: Readonly<Record<string, Json>>) => Json)>;
  /** A sign-in method's part of the USER object (components.ts userSchemas). */
  user?: UserSchemaPart;
  /** A sign-in method's way to create a user through the admin API (POST /admin/v1/users, http/admin/route.ts). */
  adminUserCreation?: UserCreationPart;
  /**
   * Ordering hints for an area that adds to another area's tag (a room's admin routes under the
   * kernel's "admin" tag): its paths go right after this path (relative to the prefix), its schemas
   * right after this schema, so the document reads as one area. Without them it goes at the end.
   */
  after?: { path: string; schema?: string };
}

/** What a sign-in method adds to the USER object's schemas: its recipe id and its own fields. */
export interface UserSchemaPart {
  recipeId: string;
  /** Its fields at the top of the USER object, and which of them are always there. */
  fields?: Record<string, Json>;
  required?: readonly string[];
  /** Its fields in each of its login methods (loginMethods[]). */
  loginMethodFields?: Record<string, Json>;
  /** The schemas those fields refer to. */
  schemas?: Record<string, Json>;
}

/**
 * A sign-in method's part of the admin API's user creation: the request body's fields it reads,
 * and its phrase of the summary ("Create " and the phrases joined by ", or ").
 */
export interface UserCreationPart {
  fields: Record<string, Json>;
  summary: string;
}

/** What the areas declare for an operation of another area to describe: the ways to create a user, in the areas' order. */
export interface DocumentParts {
  userCreation: readonly UserCreationPart[];
}

/** An area mounted under the API base path. */
export function apiArea(name: string, description: string, paths: Record<string, Json>, schemas?: OpenApiArea["schemas"], user?: UserSchemaPart): OpenApiArea {
  return { tag: { name, description }, prefix: (c) => c.apiBasePath, paths, schemas, ...(user ? { user } : {}) };
}

/** The schema of a room's part of GET /loginmethods (Room.describe): its field(s), those always there, its first factors. */
export interface DescribedPart {
  fields: Record<string, Json>;
  required?: readonly string[];
  firstFactors: readonly string[];
}

/** The schema of a part that is `{ enabled: boolean }`. */
export const enabledPart = (): Json => ({ type: "object", required: ["enabled"], additionalProperties: false, properties: { enabled: { type: "boolean" } } });
