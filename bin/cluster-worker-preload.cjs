// Loaded before anything else in each HTTP worker of `authsvc serve --workers N` (the primary adds
// it with --require; src/cli/serve-cluster.ts). A worker's first act, inside Node's own start-up,
// is to tell the primary it is online; when the primary was killed a moment before, that write
// fails (EPIPE) before any of authsvc's code is loaded, and Node would print the unhandled error's
// stack. The worker then stops on its own (it finds the channel closed when it asks for the
// socket); a closed channel is a stop, not a crash.
"use strict";
const cluster = require("node:cluster");
if (cluster.isWorker && cluster.worker) {
  cluster.worker.on("error", (err) => {
    if (err && (err.code === "EPIPE" || err.code === "ERR_IPC_CHANNEL_CLOSED" || err.code === "ECONNRESET")) return;
    throw err;
  });
}
