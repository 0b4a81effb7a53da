import { request } from "node:http";

export interface BenchResponse {
  ms: number;
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One request to the local Worker. node:http, because fetch refuses to set the Host header that selects
 * the tenant; Origin is the tenant's own so state-changing requests pass the CSRF check.
 */
export function send(port: number, host: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<BenchResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: { Host: `${host}:${port}`, ...(body ? { Origin: `http://${host}:${port}` } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }),
        );
      },
    );
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
