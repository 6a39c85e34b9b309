// The ceiling for HTTP: an h3 hello-world on the same listener stack as `authsvc serve` (listhen
// with serve's options, h3's node listener). Prints "listening on http://127.0.0.1:PORT" on stderr.
import { createApp, createRouter, defineEventHandler, toNodeListener } from "h3";
import { listen } from "listhen";

const app = createApp();
app.use(createRouter().get("/", defineEventHandler(() => ({ status: "OK", isVerified: false }))));
// Same options as src/cli/serve.ts `listen` (no port hunting, no URL printing, no autoClose).
const listener = await listen(toNodeListener(app), {
  port: { port: 0, random: true, ports: [], portRange: [], alternativePortRange: [], verbose: false },
  hostname: "127.0.0.1", showURL: false, open: false, clipboard: false, qr: false, autoClose: false, isTest: false, isProd: true,
});
process.stderr.write(`listening on http://127.0.0.1:${listener.server.address().port}\n`);
process.on("SIGTERM", async () => { await listener.close(); process.exit(0); });
