import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * A GET of a document some client named by URL (a client ID metadata document), made so that the
 * client cannot aim this server at its own network (SSRF): every address the host name resolves to
 * is checked when the connection is made (a custom `lookup`, so a name that resolves to a public
 * address at one moment and to 127.0.0.1 the next gains nothing), IP literals are checked before,
 * only plain public unicast addresses pass (no private, loopback, link-local, carrier-grade NAT,
 * unique-local, or the cloud metadata addresses, which live in those ranges), redirects are not
 * followed, and the answer has a size cap and the whole exchange a deadline.
 */
export interface FetchPolicy {
  /** Development (a loopback public URL): documents on loopback addresses, over http too. */
  allowLoopback: boolean;
  maxBytes: number;
  timeoutMs: number;
}

/** A refusal whose message may be shown to the client (it says what was wrong with its document). */
export class DocumentRefused extends Error {}

export interface FetchedDocument { body: string; cacheControl?: string; expires?: string; date?: string }

/** Whether an address is one this server may connect to for a client's document. */
export function isAllowedAddress(address: string, policy: Pick<FetchPolicy, "allowLoopback">): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try { parsed = ipaddr.process(address); } catch { return false; }
  const range = parsed.range();
  return range === "unicast" || (policy.allowLoopback && range === "loopback");
}

/** The checks on the URL itself: https (http only on loopback in development), no credentials, an IP literal that is public. */
export function checkFetchUrl(url: URL, policy: FetchPolicy): void {
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  const loopbackLiteral = isIP(literal) !== 0 && isAllowedAddress(literal, { allowLoopback: true }) && !isAllowedAddress(literal, { allowLoopback: false });
  const loopbackName = url.hostname === "localhost" || url.hostname.endsWith(".localhost");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLoopback && (loopbackLiteral || loopbackName))) {
    throw new DocumentRefused("the client_id URL must use https");
  }
  if (isIP(literal) && !isAllowedAddress(literal, policy)) throw new DocumentRefused("the client_id URL points at a private, loopback or link-local address");
}

/** Fetches the URL under the policy; refusals (address, status, size, time, JSON) are DocumentRefused. */
export async function guardedFetch(url: URL, policy: FetchPolicy): Promise<FetchedDocument> {
  checkFetchUrl(url, policy);
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      // Every address the name has must pass, not only the one tried first.
      if (addresses.length === 0 || addresses.some((a) => !isAllowedAddress(a.address, policy))) {
        return callback(Object.assign(new DocumentRefused(`${hostname} resolves to a private, loopback or link-local address`), { code: "EADDRNOTALLOWED" }), "", 0);
      }
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<FetchedDocument>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => { if (!settled) { settled = true; reject(new DocumentRefused(why)); } req.destroy(); };
    const timer = setTimeout(() => fail(`the document did not arrive within ${policy.timeoutMs} ms`), policy.timeoutMs);
    const req = request(url, {
      method: "GET", lookup, agent: false,
      headers: { accept: "application/json", "accept-encoding": "identity", "user-agent": "authsvc (client metadata document fetch)" },
    }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        const redirect = res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400;
        return fail(redirect ? `the document URL answered a redirect (${res.statusCode}); redirects are not followed` : `the document URL answered ${res.statusCode}`);
      }
      const declared = Number(res.headers["content-length"]);
      if (declared > policy.maxBytes) return fail(`the document is larger than ${policy.maxBytes} bytes`);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) return fail(`the document is larger than ${policy.maxBytes} bytes`);
        chunks.push(chunk);
      });
      res.on("end", () => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        const h = res.headers;
        resolve({ body: Buffer.concat(chunks).toString("utf8"), cacheControl: h["cache-control"], expires: h.expires, date: h.date });
      });
      res.on("error", (err) => fail(`reading the document failed (${err.message})`));
    });
    req.on("error", (err: Error & { code?: string }) => {
      clearTimeout(timer);
      fail(err instanceof DocumentRefused ? err.message : `the document could not be fetched (${err.code ?? err.message})`);
    });
    req.on("close", () => clearTimeout(timer));
    req.end();
  });
}
