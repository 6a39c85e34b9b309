import { defineEventHandler, setResponseStatus } from "h3";
import type { HttpDeps } from "../deps.js";

/** GET /healthz: the process is alive and serving. */
export const healthz = () => defineEventHandler(() => ({ status: "ok" }));

/**
 * GET /readyz: the database answers, migrations are applied, and we are not shutting down; with
 * several workers, for the whole server (cli/cluster-readiness.ts), saying how many workers are ready.
 */
export const readyz = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const state = await deps.readiness();
    if (!state.ready) setResponseStatus(event, 503);
    const workers = state.workers ? { workers: state.workers } : {};
    return state.ready ? { status: "ok", ...workers } : { status: "unavailable", reason: state.reason, ...workers };
  });
