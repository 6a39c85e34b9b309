import { defineEventHandler, setResponseStatus } from "h3";
import type { HttpDeps } from "../deps.js";

/** GET /healthz: the process is alive and serving. */
export const healthz = () => defineEventHandler(() => ({ status: "ok" }));

/** GET /readyz: the database answers, migrations are applied, and we are not shutting down. */
export const readyz = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const state = await deps.readiness();
    if (!state.ready) setResponseStatus(event, 503);
    return state.ready ? { status: "ok" } : { status: "unavailable", reason: state.reason };
  });
