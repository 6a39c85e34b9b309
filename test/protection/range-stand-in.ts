import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Have I Been Pwned's range API (the real one cannot be reached here): GET
 * /range/<5 hex> answers the suffixes of the breached passwords it was given under that prefix,
 * with their counts, plus padding lines of count 0 (the passwords in `padding`, as the real API pads
 * with fake suffixes) when asked for padding. Records each request's path and Add-Padding header.
 */
export async function startRangeStandIn(breached: readonly string[], padding: readonly string[] = []) {
  const sha1 = (p: string) => createHash("sha1").update(p, "utf8").digest("hex").toUpperCase();
  const requests: Array<{ path: string; padding: string | undefined }> = [];
  let hang = false;
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", padding: req.headers["add-padding"] as string | undefined });
    if (hang) return; // never answers: the client's timeout decides
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(req.url ?? "")?.[1];
    if (!prefix) { res.statusCode = 400; return res.end("bad prefix"); }
    const lines = breached.map(sha1).filter((h) => h.startsWith(prefix)).map((h) => `${h.slice(5)}:${42}`);
    if (req.headers["add-padding"] === "true") lines.push(...padding.map(sha1).filter((h) => h.startsWith(prefix)).map((h) => `${h.slice(5)}:0`), `${"0".repeat(35)}:0`);
    res.setHeader("content-type", "text/plain");
    res.end(lines.join("\r\n"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`,
    requests,
    set hang(v: boolean) { hang = v; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
