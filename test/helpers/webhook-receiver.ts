import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered: an HTTP status, or "hang" (never answered in time). */
  answer: number | "hang";
}

/**
 * A real HTTP receiver on loopback: records every request, answers 200 unless told otherwise for
 * the next requests (a status, or "hang" to hold the request open until the test ends).
 */
export async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  /** Answers the next requests in this order (then 200 again). */
  plan: Array<number | "hang">;
  verify(secret: string, r: Received): unknown;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const plan: Array<number | "hang"> = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => { body += d; });
    req.on("end", () => {
      const answer = plan.shift() ?? 200;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ id: headers["webhook-id"], headers, body, answer });
      if (answer === "hang") { hanging.add(res); return; }
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    plan,
    verify: (secret, r) => new Webhook(secret).verify(r.body, r.headers),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
