// The hosted sign-in page in German against the same page in English, same server, same run, runs
// interleaved (issue 48): the words layer must cost a page in another language nothing that matters.
// Target: requests per second in German / in English >= 0.95.
// Alone: node scripts/bench/words.mjs [--quick]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startAuthsvc } from "../bench-lib/servers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

function load(url, headers, seconds) {
  const spec = { mode: "throughput", url, kind: "page", path: "/auth", headers, connections: 20, seconds, warmupSeconds: 1 };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/bench-lib/load.mjs", JSON.stringify(spec)], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited with ${code}`))));
  });
}

export default async function run({ quick = false, log = () => {} } = {}) {
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "ignore" });
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-words-"));
  const server = await startAuthsvc(join(dir, "words.db"), { bcryptCost: 8, env: { AUTHSVC_WORKERS: "1" } });
  try {
    const seconds = quick ? 2 : 6;
    const rps = { en: [], de: [] };
    for (let i = 0; i < (quick ? 2 : 4); i++) {
      for (const lang of i % 2 ? ["de", "en"] : ["en", "de"]) {
        const r = await load(server.url, { "accept-language": lang === "de" ? "de-DE,de;q=0.9,en;q=0.8" : "en-US,en;q=0.9" }, seconds);
        if (r.non2xx || r.errors) throw new Error(`words: ${r.non2xx} non-2xx answers and ${r.errors} errors for the ${lang} page`);
        rps[lang].push(r.rps);
      }
    }
    const en = median(rps.en);
    const de = median(rps.de);
    log(`words: sign-in page req/s en ${rps.en.map(Math.round).join(", ")}; de ${rps.de.map(Math.round).join(", ")}`);
    return [
      { scenario: "hosted sign-in page", figure: "English (Accept-Language: en), median", value: Math.round(en), unit: "req/s" },
      { scenario: "hosted sign-in page", figure: "German (Accept-Language: de), median", value: Math.round(de), unit: "req/s", ceiling: "0.95 x English", ceilingValue: Math.round(0.95 * en), ratio: Math.round((de / en) * 100) / 100 },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run({ quick: process.argv.includes("--quick"), log: console.error });
  console.log(JSON.stringify(figures, null, 2));
}
