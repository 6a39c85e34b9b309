import { createAssetTable, kernelPageAssetsWith } from "../http/pages/assets.js";
import { PERSON_FACTS } from "../http/person-panels.js";
import type { HttpTables } from "../http/tables.js";
import type { Room } from "./room.js";

/** Builds the HTTP tables from the rooms, in their order (the order the OpenAPI document shows). */
export function assembleHttpTables(rooms: readonly Room[]): HttpTables {
  const ids = new Set<string>();
  for (const r of rooms) {
    if (ids.has(r.id)) throw new Error(`room ${r.id} is listed twice`);
    ids.add(r.id);
  }
  const pick = <T>(f: (r: Room) => T | undefined): T[] => rooms.flatMap((r) => { const v = f(r); return v === undefined ? [] : [v]; });
  const described = pick((r) => r.describeSchema);
  return {
    routes: rooms.flatMap((r) => r.routes ?? []),
    adminRoutes: rooms.flatMap((r) => r.adminRoutes ?? []),
    userCreators: pick((r) => r.adminUserCreator),
    pages: (config) => rooms.flatMap((r) => r.pages?.(config) ?? []),
    assets: createAssetTable(mergeAssets([kernelPageAssetsWith(pick((r) => r.styles), pick((r) => r.signIn).flatMap((p) => p.refusals ?? [])), ...pick((r) => r.assets)])),
    publicAreas: pick((r) => (typeof r.openapi === "function" ? r.openapi(described) : r.openapi)),
    adminAreas: pick((r) => r.adminOpenapi),
    mounts: pick((r) => (r.mount ? { handler: r.mount, path: r.mountPath } : undefined)),
    describe: pick((r) => r.describe),
    returnPaths: (config) => [...config.pagesRedirectPaths, ...rooms.flatMap((r) => r.returnPaths?.(config) ?? [])],
    accountPage: pick((r) => r.accountPage),
    personPage: {
      panels: unique("person page panel", rooms.flatMap((r) => r.personPage?.panels ?? []), (p) => p.id, [PERSON_FACTS]),
      facts: rooms.flatMap((r) => r.personPage?.facts ?? []),
      actions: unique("person page action", rooms.flatMap((r) => r.personPage?.actions ?? []), (a) => a.path),
    },
    dashboardSections: unique("dashboard section", pick((r) => r.dashboardSection), (s) => s.path),
    signIn: pick((r) => r.signIn),
  };
}

/** The list, when no two of its items share a key nor take a reserved one (a panel id or an action path twice is a programming error). */
function unique<T>(what: string, items: T[], key: (item: T) => string, reserved: readonly string[] = []): T[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (reserved.includes(key(item))) throw new Error(`${what} ${key(item)} takes a reserved name`);
    if (seen.has(key(item))) throw new Error(`${what} ${key(item)} is declared twice`);
    seen.add(key(item));
  }
  return items;
}

/** One asset namespace for all pages: a name two rooms both use is a programming error. */
function mergeAssets(sets: ReadonlyArray<Readonly<Record<string, string>>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, text] of Object.entries(set)) {
      if (name in out) throw new Error(`page asset ${name} is declared twice`);
      out[name] = text;
    }
  }
  return out;
}
