import { lookup } from "node:dns/promises";
import net from "node:net";
import { getSystemErrorName } from "node:util";
import { isUnsafePort } from "get-port-please";
import { ListenError } from "./server.js";

/**
 * The listening socket of `serve --workers N`, held by the primary for its whole life.
 *
 * The primary binds the port once, before any worker exists, and hands the socket to every worker
 * (and every replacement) over the cluster's channel; each worker listens on it and accepts
 * connections itself. So the kernel queues and distributes connections: a connection waits in the
 * backlog until some worker accepts it, never in the primary's hands (node:cluster's round-robin
 * hands accepted connections to a worker that may die with them unanswered), and the port stays
 * open while the last worker is being replaced. No worker probes the port before listening.
 *
 * The socket is bound here but not listened on: until the first worker listens, a connection is
 * refused, never held. The primary never accepts on it. Binding without listening is what
 * node:cluster's own shared sockets do (net._createServerHandle); there is no public API for it.
 */
export interface ListenSocket {
  /** The bound socket (a libuv TCP handle), sendable to a worker with `worker.send(message, handle)`. */
  handle: object;
  port: number;
  /** Closes the primary's copy: the port closes once every worker has closed its own. */
  close(): void;
}

type CreateServerHandle = (address: string, port: number, addressType: number, fd?: number, flags?: number) => number | { getsockname(out: object): number; close(): void };

/** Binds `host:port` (0 = any free port) with the same refusals and words as a single-process listen. */
export async function bindListenSocket(host: string, port: number): Promise<ListenSocket> {
  const where = `port ${port} on ${host}`;
  if (port !== 0 && isUnsafePort(port)) throw new ListenError(`${where} cannot be used: it is on the list of ports browsers refuse to connect to; choose another with --port`);
  const create = (net as unknown as { _createServerHandle?: CreateServerHandle })._createServerHandle;
  if (typeof create !== "function") throw new ListenError(`cannot listen on ${where}: this Node.js cannot share a listening socket; run with --workers 1`);
  let address: { address: string; family: number };
  try {
    address = net.isIP(host) ? { address: host, family: net.isIP(host) } : await lookup(host);
  } catch {
    throw new ListenError(`cannot bind to ${host}: no such local address; check --host`);
  }
  const handle = create(address.address, port, address.family);
  if (typeof handle === "number") {
    const code = getSystemErrorName(handle);
    if (code === "EADDRINUSE") throw new ListenError(`${where} is already in use; stop the other process or choose another with --port`);
    if (code === "EACCES") throw new ListenError(`${where} needs privileges this process does not have; choose a port above 1023 with --port`);
    if (code === "EADDRNOTAVAIL") throw new ListenError(`cannot bind to ${host}: no such local address; check --host`);
    throw new ListenError(`cannot listen on ${where}: ${code}`);
  }
  const bound: { port?: number } = {};
  handle.getsockname(bound);
  let closed = false;
  return { handle, port: bound.port ?? port, close: () => { if (!closed) { closed = true; handle.close(); } } };
}
