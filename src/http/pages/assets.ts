import { createHash } from "node:crypto";
import { defineEventHandler, getRequestHeader, getRouterParam, setResponseHeaders, setResponseStatus, type EventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import type { HttpDeps } from "../deps.js";
import { sharedRefusalKinds, type RefusalKind } from "./sign-in-parts.js";
import apiJs from "./assets/api.js?raw";
import devHomeJs from "./assets/dev-home.js?raw";
import inboxJs from "./assets/inbox.js?raw";
import pagesCss from "./assets/pages.css?raw";
import redirectTargetJs from "./assets/redirect-target.js?raw";
import refusalJs from "./assets/refusal.js?raw";
import refusalWordsJs from "./assets/refusal-words.js?raw";
import signInJs from "./assets/sign-in.js?raw";
import signOutJs from "./assets/sign-out.js?raw";
import tokenJs from "./assets/token.js?raw";
import verifyEmailJs from "./assets/verify-email.js?raw";

interface Asset { body: Buffer; type: string; etag: string }

const types: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" };

/**
 * A set of static files bundled as text (`?raw`), hashed once at start for their ETag and
 * cache-busting URL: the hosted pages' here, the dashboard's in src/dashboard/assets.ts.
 */
export function createAssetTable(files: Record<string, string>) {
  const assets = new Map<string, Asset>(Object.entries(files).map(([name, text]) => {
    const body = Buffer.from(text, "utf8");
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"`;
    return [name, { body, type: types[name.split(".").pop()!], etag }];
  }));
  return {
    /** The URL of an asset under `prefix`, with its content hash so a new release is never served stale. */
    url(prefix: string, name: string): string {
      const a = assets.get(name);
      if (!a) throw new Error(`no asset named ${name}`);
      return `${prefix}/${name}?v=${a.etag.slice(1, -1)}`;
    },
    /**
     * GET <prefix>/:name. `no-cache` with an ETag rather than a year of `immutable`: the module scripts
     * import each other by plain relative URLs, so every file is revalidated (a 304 costs one small
     * round trip) and a release can never mix old and new files.
     */
    serve(): EventHandler {
      return defineEventHandler((event) => {
        const a = assets.get(getRouterParam(event, "name") ?? "");
        if (!a) throw new AuthError("NOT_FOUND", "Not Found");
        setResponseHeaders(event, { "content-type": a.type, "cache-control": "no-cache", etag: a.etag, "cross-origin-resource-policy": "same-origin" });
        if (getRequestHeader(event, "if-none-match") === a.etag) {
          setResponseStatus(event, 304);
          return null;
        }
        return a.body;
      });
    },
  };
}

/** The kernel's static files for the hosted and development pages; the rooms add theirs (Room.assets). */
const kernelPageAssets: Readonly<Record<string, string>> = {
  "api.js": apiJs, "dev-home.js": devHomeJs, "inbox.js": inboxJs, "pages.css": pagesCss, "redirect-target.js": redirectTargetJs,
  "refusal.js": refusalJs, "refusal-words.js": refusalWordsJs,
  "sign-in.js": signInJs, "sign-out.js": signOutJs, "token.js": tokenJs, "verify-email.js": verifyEmailJs,
};

/**
 * The kernel's page assets, with the rooms' styles (Room.styles, in the rooms' order) after the
 * kernel's own in pages.css: every page still loads one stylesheet, whichever rooms are listed; and
 * the rooms' refusals (SignInPart.refusals) added to refusal-words.js, which every page reads.
 */
export function kernelPageAssetsWith(roomStyles: readonly string[], roomRefusals: readonly RefusalKind[] = []): Record<string, string> {
  checkRefusals(roomRefusals);
  const added = roomRefusals.map((r) => `addRefusalKind(${[r.kind, r.codes, ...(r.words === undefined ? [] : [r.words])].map((v) => JSON.stringify(v)).join(", ")});\n`);
  return { ...kernelPageAssets, "pages.css": pagesCss + roomStyles.join(""), "refusal-words.js": refusalWordsJs + added.join("") };
}

/**
 * Every code is one refusal's, and every kind has one sentence: the kernel's for a shared kind (a
 * room only adds its codes to it), the room's for its own.
 */
function checkRefusals(refusals: readonly RefusalKind[]): void {
  const shared: readonly string[] = sharedRefusalKinds;
  const seen = new Set(shared.map((k) => `kind ${k}`));
  for (const r of refusals) {
    if (r.words === undefined && !shared.includes(r.kind)) throw new Error(`refusal kind ${r.kind} has no sentence`);
    for (const name of [...(r.words === undefined ? [] : [`kind ${r.kind}`]), ...r.codes.map((c) => `code ${c}`)]) {
      if (seen.has(name)) throw new Error(`refusal ${name} is declared twice`);
      seen.add(name);
    }
  }
}

/** A table of static files: their cache-busting URLs and the handler that serves them. */
export type AssetTable = ReturnType<typeof createAssetTable>;

/** GET <prefix>/:name of the pages' assets (the kernel's and the rooms'). */
export const serveAsset = (deps: HttpDeps): EventHandler => deps.tables.assets.serve();
