import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A client's own web server for client ID metadata documents, on loopback: each path answers what
 * the test put there (a document with headers, a redirect, a body, or nothing at all), and counts
 * how often it was asked.
 */
export type Answer =
  | { json: unknown; headers?: Record<string, string> }
  | { status: number; headers?: Record<string, string>; body?: string }
  | { hang: true };

export interface DocumentServer {
  origin: string;
  set(path: string, answer: Answer): string;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const a = answers.get(path);
    if (!a) { res.writeHead(404).end(); return; }
    if ("hang" in a) return;
    if ("json" in a) { res.writeHead(200, { "content-type": "application/json", ...a.headers }).end(JSON.stringify(a.json)); return; }
    res.writeHead(a.status, a.headers).end(a.body ?? "");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    set(path, answer) { answers.set(path, answer); return origin + path; },
    hits: (path) => counts.get(path) ?? 0,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
