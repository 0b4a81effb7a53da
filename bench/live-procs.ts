// What the live-path benchmark learns about the server's processes from /proc (Linux): which workerd runs the
// Worker and on which port, and each process's CPU time, open files and memory, as evidence of where time goes.
//
// `wrangler dev` runs two workerd processes: one behind the public port runs wrangler's ProxyWorker, which
// forwards every request to the other, where the Worker and its Durable Objects run. The proxy holds about six
// descriptors per WebSocket it relays (two sockets and four pipes), so under the usual 20,000 open-file limit it
// cannot relay more than about 3,300 sockets; spectators therefore connect to the Worker's own socket.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { requestWithRetry } from "./live-http";

const CLOCK_TICKS = 100;

export interface ServerProcesses {
  /** The workerd process running the Worker and its Durable Objects. */
  worker: number | null;
  /** The workerd process behind the public port (wrangler's ProxyWorker). */
  proxy: number | null;
  /** wrangler's own Node processes (not the serve-test script above them). */
  wrangler: number[];
  /** The workerd process running the spectator shards, when they run apart from the room (bench/shards-apart.ts). */
  shards?: number | null;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The processes in a process group (the server is started detached, so its group is its pid). */
function groupMembers(pgid: number): { pid: number; cmdline: string }[] {
  const members: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    // After "(comm)": state, ppid, pgrp.
    const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (!fields || Number(fields[2]) !== pgid) continue;
    members.push({ pid: Number(entry), cmdline: (read(`/proc/${entry}/cmdline`) ?? "").replaceAll("\0", " ") });
  }
  return members;
}

export function serverProcesses(pgid: number, publicPort: number): ServerProcesses {
  const members = groupMembers(pgid);
  const workerds = members.filter((m) => /\/workerd\s+serve/.test(m.cmdline));
  const isProxy = (m: { cmdline: string }) => m.cmdline.includes(`entry=127.0.0.1:${publicPort} `);
  return {
    proxy: workerds.find(isProxy)?.pid ?? null,
    worker: workerds.find((m) => !isProxy(m))?.pid ?? null,
    wrangler: members.filter((m) => /wrangler-dist\/cli\.js|\.bin\/wrangler /.test(m.cmdline)).map((m) => m.pid),
  };
}

/** TCP ports a process listens on (IPv4 loopback), from its socket descriptors and /proc/net/tcp. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const line of (read(`/proc/${pid}/net/tcp`) ?? "").split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    // local_address, ..., st (0A = LISTEN), ..., inode (column 10).
    if (cols[3] === "0A" && inodes.has(cols[9] ?? "")) ports.push(parseInt(cols[1]!.split(":")[1]!, 16));
  }
  return ports;
}

/** The port on which the Worker itself answers (the ProxyWorker's target); null when it cannot be found. */
export async function findWorkerPort(pid: number, host: string): Promise<number | null> {
  for (const port of listeningPorts(pid)) {
    try {
      // The Worker's entry answers its own requests; the inspector and debug ports do not.
      const reply = await requestWithRetry({ port, host }, "/favicon.ico", { timeoutMs: 2_000, attempts: 1 });
      if (reply.status === 200) return port;
    } catch {
      // Not it.
    }
  }
  return null;
}

/** User plus system CPU seconds a process has used (0 when it is gone). */
export function cpuSeconds(pid: number | null): number {
  if (pid === null) return 0;
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after "(comm) ".
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

export function openFiles(pid: number | null): number {
  if (pid === null) return 0;
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** The soft open-file limit of a process (Infinity when unknown). */
export function openFileLimit(pid: number | null): number {
  const match = pid === null ? null : /^Max open files\s+(\d+)/m.exec(read(`/proc/${pid}/limits`) ?? "");
  return match ? Number(match[1]) : Infinity;
}

export function rssMb(pid: number | null): number {
  const match = pid === null ? null : /^VmRSS:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? "");
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

/** CPU seconds per part of the set-up, read at the start of a phase and subtracted at its end. */
export class CpuMeter {
  constructor(
    private readonly procs: ServerProcesses,
    private readonly clients: () => number[],
  ) {}

  sample(): Record<string, number> {
    return {
      worker: cpuSeconds(this.procs.worker),
      proxy: cpuSeconds(this.procs.proxy),
      wrangler: this.procs.wrangler.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      ...(this.procs.shards !== undefined ? { shards: cpuSeconds(this.procs.shards) } : {}),
      spectator_clients: this.clients().reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    };
  }

  since(start: Record<string, number>): Record<string, number> {
    const now = this.sample();
    return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, Math.round((v - (start[k] ?? 0)) * 100) / 100]));
  }
}
