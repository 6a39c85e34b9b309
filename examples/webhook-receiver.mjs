// Receives authsvc webhooks in your own backend: checks each delivery's signature with the
// standardwebhooks library (the one authsvc signs with), handles each webhook-id once, answers fast.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";

/**
 * An HTTP handler for deliveries. `secret` is the endpoint's whsec_ secret (from
 * `authsvc webhooks add`); `onEvent({ type, timestamp, data }, webhookId)` does your work.
 */
export function createWebhookReceiver(secret, onEvent) {
  const webhook = new Webhook(secret);
  // Deliveries come at least once: a retry or a replay repeats the webhook-id. Keep the ids you
  // handled where your data lives (a table with a unique column, written in the same transaction as
  // the work); a Set only lasts as long as this process.
  const handled = new Set();
  return createServer(async (req, res) => {
    if (req.method !== "POST") return res.writeHead(405).end();
    let body = "";
    for await (const chunk of req.setEncoding("utf8")) {
      body += chunk;
      if (body.length > 1_000_000) return res.writeHead(413).end();
    }
    let event;
    try {
      // Checks the signature over id, timestamp and the raw body, and that the timestamp is within
      // five minutes (an old delivery replayed by someone else is refused). Parse only after it.
      event = webhook.verify(body, req.headers);
    } catch {
      return res.writeHead(400).end("invalid signature");
    }
    const id = req.headers["webhook-id"];
    if (!handled.has(id)) {
      try {
        await onEvent(event, id);
      } catch (err) {
        console.error("webhook handling failed; authsvc will retry", err);
        return res.writeHead(500).end();
      }
      handled.add(id);
    }
    // Any 2xx ends the retries. Slow work belongs in your own queue: authsvc waits 10 s at most.
    res.writeHead(204).end();
  });
}

// Run it directly: WEBHOOK_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.mjs
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error("set WEBHOOK_SECRET to the endpoint's whsec_ secret");
  const port = Number(process.env.PORT ?? 4000);
  createWebhookReceiver(secret, (event, id) => {
    console.log(id, event.type, JSON.stringify(event.data));
  }).listen(port, "127.0.0.1", () => console.log(`receiving webhooks on http://127.0.0.1:${port}/`));
}
