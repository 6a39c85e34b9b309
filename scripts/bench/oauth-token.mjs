// The OAuth provider's token endpoint: POST /oauth/token requests per second (client credentials for a
// registered resource: client authentication, the resource check, one RS256-signed JWT access token)
// against the RS256 signing ceiling of one thread measured in the same run (the provider signs on the
// event loop, so one signature per token bounds it). Batches alternate with the ceiling; medians.
// Usage: node scripts/build.mjs && node scripts/bench/oauth-token.mjs [--quick]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureRs256 } from "../bench-lib/ceilings.mjs";
import { load, median, startServer } from "./limits.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RESOURCE = "https://mcp.example.com/mcp";

/** `authsvc <args> --database <db> --json` on the server's database, before it starts. */
function cli(database, args) {
  return JSON.parse(execFileSync(process.execPath, [join(root, "bin/authsvc"), ...args, "--database", database, "--json"], { encoding: "utf8" }));
}

export default async function run({ quick = false, log = () => {} } = {}) {
  const batches = quick ? 2 : 5;
  const requests = quick ? 200 : 1500;
  const concurrency = 8;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-oauth-"));
  const database = join(dir, "oauth.db");
  let server;
  const tokenRps = [];
  const ceiling = [];
  try {
    execFileSync(process.execPath, [join(root, "bin/authsvc"), "migrate", "--database", database], { stdio: "ignore" });
    cli(database, ["oauth", "resources", "create", RESOURCE, "--scopes", "notes:read"]);
    const client = cli(database, ["oauth", "clients", "create", "--name", "bench", "--confidential", "--grant-types", "client_credentials", "--resources", RESOURCE]);
    server = await startServer(dir, "oauth", ["--limit-oauth-ip", "1000000000/1h"]);
    const port = server.port;
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64")}`;
    const body = new URLSearchParams({ grant_type: "client_credentials", resource: RESOURCE, scope: "notes:read" }).toString();
    const token = () => new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, method: "POST", path: "/oauth/token", agent, headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } }, (res) => {
        let text = "";
        res.on("data", (c) => { text += c; });
        res.on("end", () => resolve({ status: res.statusCode, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
    await load(quick ? 20 : 200, concurrency, token); // warm-up: the provider loads on first use
    for (let b = 0; b < batches; b++) {
      const r = await load(requests, concurrency, token);
      tokenRps.push(r.rps);
      ceiling.push(measureRs256(quick ? 0.5 : 2));
      log(`oauth token batch ${b + 1}: ${r.rps.toFixed(0)} tokens/s, RS256 ceiling ${ceiling.at(-1).toFixed(0)}/s`);
    }
    agent.destroy();
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const rps = median(tokenRps), sign = median(ceiling);
  return [
    { scenario: "POST /oauth/token, client credentials → RS256 JWT access token for a resource, SQLite (ceiling: RS256 signatures per second, one thread)", figure: "requests/s", value: +rps.toFixed(0), unit: "req/s", ceiling: "RS256 sign, one thread", ceilingValue: +sign.toFixed(0), ratio: +(rps / sign).toFixed(3) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
