import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { root } from "../scripts/wrangler-env.mjs";

export interface ServerOptions {
  /** Where wrangler keeps the local state (wiped first); by default `.wrangler/bench-state-<port>`, so runs on different ports never share it. */
  stateDir?: string;
  /** Extra environment for the server and the wrangler/workerd processes below it. */
  env?: Record<string, string>;
  /**
   * Raise the open-file limit of the server and everything below it (wrangler, workerd) to this: the soft limit
   * up to the hard one always, the hard one only where the system allows (CAP_SYS_RESOURCE).
   */
  openFiles?: number;
}

export interface BenchServer {
  /** The server's process group (it runs wrangler and workerd below it). */
  pid: number;
  stop: () => Promise<void>;
}

/** Starts the built Worker with fresh seeded local state on 127.0.0.1:<port> and waits until it answers. */
export function startServer(port: number, options: ServerOptions = {}): Promise<BenchServer> {
  const stateDir = options.stateDir ?? `.wrangler/bench-state-${port}`;
  return startDetached(port, path.join(root, "node_modules", ".bin", "tsx"), ["scripts/serve-test.ts", String(port), stateDir], options);
}

/**
 * Runs `program args` in a process group of its own and waits until 127.0.0.1:<port>/favicon.ico answers 200;
 * `stop` ends the whole group, forcefully if it lingers.
 */
export async function startDetached(port: number, program: string, args: string[], options: ServerOptions = {}): Promise<BenchServer> {
  // `ulimit -n` in a shell in front of the server: Node cannot set its own limits, and the limit is inherited
  // by wrangler and workerd, which hold one descriptor per spectator socket. Best effort: when the hard limit
  // cannot be raised (not root), the shell goes on with the limit it has.
  const [command, argv] = options.openFiles
    ? [
        "/bin/sh",
        [
          "-c",
          `ulimit -Hn ${options.openFiles} 2>/dev/null; ulimit -n ${options.openFiles} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"`,
          program,
          ...args,
        ],
      ]
    : [program, args];
  const child: ChildProcess = spawn(command, argv as string[], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
    // React's production build, as the deployed Worker has it: `wrangler dev` bundles React for NODE_ENV, which it
    // takes as "development" when unset, and the development build renders a page 2–3 times slower (decision 0079).
    env: { ...process.env, NODE_ENV: "production", ...options.env },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async () => {
    if (!running || !child.pid) return;
    // The server runs wrangler and workerd below it: end the whole process group, forcefully if it lingers.
    process.kill(-child.pid, "SIGTERM");
    const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!killed) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone in the meantime.
      }
      await exited;
    }
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (!running) throw new Error("The bench server exited before it answered");
    if (Date.now() > deadline) {
      await stop();
      throw new Error("The bench server did not start within 120 s");
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/favicon.ico`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { pid: child.pid!, stop };
}
