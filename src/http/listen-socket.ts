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
  const close = () => { if (!closed) { closed = true; handle.close(); } };
  // Binding succeeds beside a socket that another process listens on (SO_REUSEADDR); only listen()
  // would fail, and the workers' listen on a socket that cannot listen does not fail cleanly. So
  // the check is a connection to it: our own socket does not listen yet and refuses, another
  // process's answers. (A check that listened for a moment would accept clients' connections in
  // that moment and then reset them.)
  if (port !== 0 && await someoneListens(address.address, port)) {
    close();
    throw new ListenError(`${where} is already in use; stop the other process or choose another with --port`);
  }
  return { handle, port: bound.port ?? port, close };
}

/** Whether a connection to `address:port` (the loopback address for a wildcard one) is accepted. */
function someoneListens(address: string, port: number): Promise<boolean> {
  const host = address === "0.0.0.0" ? "127.0.0.1" : address === "::" ? "::1" : address;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (listening: boolean) => { clearTimeout(timer); socket.destroy(); resolve(listening); };
    // A silent address (a firewall dropping the SYN) is not a listener of this machine's.
    const timer = setTimeout(() => done(false), 2_000);
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
