import { defineEventHandler, removeResponseHeader, sendRedirect } from "h3";
import { HttpInputError } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";

/**
 * POST /callback/apple: Apple returns to the redirect URI with a form POST (response_mode=form_post)
 * that a single-page app cannot read. We turn it into a 303 to the website's callback page with
 * `code`, `state` and `error` in the query, as the SuperTokens frontends expect. Unlike SuperTokens
 * we always redirect to the configured website (never to a URL taken from `state`: no open
 * redirect), and we do not forward Apple's `id_token` or `user` into a URL.
 */
export const appleCallback = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { websiteUrl, websiteBasePath, bodyLimit } = deps.ctx.config;
    const type = String(event.node.req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") throw new HttpInputError(415, "Content-Type must be application/x-www-form-urlencoded");
    const form = new URLSearchParams(await readLimited(event.node.req, bodyLimit));
    const target = new URL(`${websiteUrl}${websiteBasePath}/callback/apple`);
    for (const k of ["code", "state", "error"]) {
      const v = form.get(k);
      if (v !== null) target.searchParams.set(k, v);
    }
    // The app's baseline says JSON; this answer's body is h3's small HTML redirect page.
    removeResponseHeader(event, "content-type");
    return sendRedirect(event, target.toString(), 303);
  });

async function readLimited(req: AsyncIterable<Buffer> & { resume(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) { req.resume(); throw new HttpInputError(413, `Request body too large (limit ${limit} bytes)`); }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
