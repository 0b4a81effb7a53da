import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { root } from "../scripts/wrangler-env.mjs";

/** Starts the built Worker with fresh seeded local state on 127.0.0.1:<port> and waits until it answers. */
export async function startServer(port: number): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/serve-test.ts", String(port), ".wrangler/bench-state"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("The bench server did not start within 120 s");
    try {
      const response = await fetch(`http://127.0.0.1:${port}/favicon.ico`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    stop: async () => {
      // The server runs wrangler and workerd below it: end the whole process group.
      if (child.pid) process.kill(-child.pid, "SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
