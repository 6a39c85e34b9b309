// Preloaded (NODE_OPTIONS=--require) into a process the bench measures: at exit it writes the
// process's peak resident memory (KiB, from getrusage) to $AUTHSVC_BENCH_RSS_FILE.
process.on("exit", () => {
  const file = process.env.AUTHSVC_BENCH_RSS_FILE;
  if (file) require("node:fs").writeFileSync(file, String(process.resourceUsage().maxRSS));
});
