// Turns the bench's raw samples into figures (median, spread, ratio to a ceiling, target) and prints them.

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// Each ratio is computed per run (the scenario and its ceiling measured minutes apart at most), and
// the median of those per-run ratios is reported: on a shared machine that is steadier than a
// ratio of two medians.
const FIGURES = [
  { key: "hello", scenario: "h3 hello-world, same listener", figure: "req/s", unit: "req/s" },
  { key: "getSqlite", scenario: "GET /auth/user/email/verify (SQLite)", figure: "req/s", unit: "req/s", over: "hello", ceiling: "h3 hello-world", target: [">=", 0.35] },
  { key: "getPostgres", scenario: "GET /auth/user/email/verify (PostgreSQL)", figure: "req/s", unit: "req/s", over: "getSqlite", ceiling: "GET on SQLite", target: [">=", 0.8] },
  { key: "p99During", scenario: "GET p99 during 4 sign-ups", figure: "p99", unit: "ms", over: "p99Alone", ceiling: "GET p99 alone", target: ["<=", 2] },
  { key: "p99Alone", scenario: "GET p99 alone (400 req/s, 4 connections)", figure: "p99", unit: "ms" },
  // Not a target: what the machine's scheduler alone does to that figure (a server doing no work).
  { key: "helloP99During", scenario: "floor: hello-world p99 during 4 sign-ups (to authsvc)", figure: "p99", unit: "ms", over: "helloP99Alone", ceiling: "hello-world p99 alone" },
  { key: "helloP99Alone", scenario: "hello-world p99 alone (400 req/s, 4 connections)", figure: "p99", unit: "ms" },
  { key: "refresh", scenario: "POST /auth/session/refresh (synchronous=FULL)", figure: "req/s", unit: "req/s", over: "rs256", ceiling: "RS256 sign", target: [">=", 0.5] },
  { key: "refresh", scenario: "refresh vs one-at-a-time fsync'd commits", figure: "req/s", unit: "req/s", over: "fsync", ceiling: "fsync'd SQLite commit" },
  { key: "signin", scenario: "POST /auth/signin", figure: "req/s", unit: "req/s", over: "bcryptVerify", ceiling: "bcrypt verify, 4 in flight", target: [">=", 0.9] },
  { key: "signup", scenario: "POST /auth/signup", figure: "req/s", unit: "req/s", over: "bcryptHash", ceiling: "bcrypt hash, 4 in flight", target: [">=", 0.9] },
  { key: "signinMillion", scenario: "POST /auth/signin with many users", figure: "req/s", unit: "req/s", over: "signin", ceiling: "sign-in (few users)", target: [">=", 0.9] },
  { key: "rs256", scenario: "ceiling: RS256 sign, one thread", figure: "ops/s", unit: "ops/s" },
  { key: "bcryptVerify", scenario: "ceiling: bcrypt verify, 4 in flight", figure: "ops/s", unit: "ops/s" },
  { key: "bcryptHash", scenario: "ceiling: bcrypt hash, 4 in flight", figure: "ops/s", unit: "ops/s" },
  { key: "fsync", scenario: "ceiling: fsync'd SQLite commit, one at a time", figure: "commits/s", unit: "commits/s" },
];

/** Figures with medians, spreads, per-run ratios and pass/fail against the targets. */
export function summarise(samples) {
  const out = [];
  for (const f of FIGURES) {
    const values = samples[f.key];
    if (!values?.length) continue;
    const fig = { scenario: f.scenario, figure: f.figure, value: median(values), unit: f.unit, min: Math.min(...values), max: Math.max(...values), runs: values };
    const base = f.over && samples[f.over];
    if (base?.length) {
      const ratios = values.map((v, i) => v / base[i]).filter(Number.isFinite);
      Object.assign(fig, { ceiling: f.ceiling, ceilingValue: median(base), ratio: median(ratios), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios) });
      if (f.target) {
        const [op, t] = f.target;
        fig.target = `${op} ${t}`;
        fig.pass = op === ">=" ? fig.ratio >= t : fig.ratio <= t;
      }
    }
    out.push(fig);
  }
  return out;
}

const num = (v) => (v === undefined ? "" : v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2));

/** Prints the table (stdout); module figures follow the runner's own. */
export function printTable(figures, modules = []) {
  const rows = [["scenario", "median", "spread", "ceiling", "ratio (spread)", "target", ""]];
  for (const f of [...figures, ...modules]) {
    if (f.error) { rows.push([`${f.module}: ERROR`, f.error, "", "", "", "", ""]); continue; }
    rows.push([
      f.module ? `${f.module}: ${f.scenario}` : f.scenario,
      `${num(f.value)} ${f.unit ?? ""}`.trim(),
      f.min === undefined ? "" : `${num(f.min)}–${num(f.max)}`,
      f.ceiling ? `${f.ceiling} (${num(f.ceilingValue)})` : "",
      f.ratio === undefined ? "" : f.ratioMin === undefined ? f.ratio.toFixed(2) : `${f.ratio.toFixed(2)} (${f.ratioMin.toFixed(2)}–${f.ratioMax.toFixed(2)})`,
      f.target ?? "",
      f.pass === undefined ? "" : f.pass ? "pass" : "FAIL",
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, c) => String(cell).padEnd(widths[c])).join("  ").trimEnd());
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}
