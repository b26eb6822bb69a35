import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * Talking to one chosen process of a service run as several node:cluster workers behind one port. The
 * primary hands each new connection to a worker; which one it was is read from /proc: the worker that holds
 * the server side of this connection (its local port is ours as the remote end).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/** Inodes of the server-side sockets of the connection from `clientPort` to `serverPort` (IPv4 and IPv6). */
function serverSocketInodes(serverPort: number, clientPort: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [local, remote] = [fields[1], fields[2]];
      if (local.endsWith(`:${hexPort(serverPort)}`) && remote.endsWith(`:${hexPort(clientPort)}`))
        inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** Which of `pids` holds one of the socket `inodes` among its file descriptors. */
function holderOf(pids: number[], inodes: Set<string>): number | undefined {
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '')) return pid;
      } catch {
        // Closed between the listing and the read.
      }
    }
  }
  return undefined;
}

export interface WorkerSocket {
  socket: Socket;
  /** The worker process that accepted this connection. */
  pid: number;
}

/**
 * Opens connections to `port` until one is accepted by a worker other than `not` (among `workerPids`), and
 * returns it with that worker's pid. Connections to the unwanted worker are closed.
 */
export async function connectToWorker(
  port: number,
  workerPids: number[],
  not?: number,
): Promise<WorkerSocket> {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let pid: number | undefined;
    // The primary accepts first, then hands the connection to a worker: poll until one holds it.
    for (let poll = 0; poll < 100 && pid === undefined; poll += 1) {
      pid = holderOf(workerPids, serverSocketInodes(port, socket.localPort!));
      if (pid === undefined) await sleep(20);
    }
    if (pid !== undefined && pid !== not) return { socket, pid };
    socket.destroy();
  }
  throw new Error(`no connection to port ${port} reached a worker other than ${not} of ${workerPids}`);
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request over the given connection (which is then closed). */
export function requestOver(
  { socket }: WorkerSocket,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method,
        path,
        headers: { host: `127.0.0.1:${socket.remotePort}`, ...headers },
        createConnection: () => socket,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          socket.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body: text });
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
