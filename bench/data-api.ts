// The data service: entity GET latency, a 10,000-row CSV list, and a save's fan-out to 1,000 subscribed sockets.
import WebSocket from "ws";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { demoApp, demoClubs, demoUsers } from "../scripts/demo-data";
import { percentile, send, signInCookie } from "./http";
import { report } from "./report";

const HOST = "localhost";
const LIST_ROWS = 10_000;
const SOCKETS = 1_000;
const GETS = 300;
const CONCURRENCY = 8;

async function inParallel(count: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Signs the demo club admin in and authorises the demo app, as a browser would, returning an access token. */
async function accessToken(port: number): Promise<string> {
  const form = { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" };
  const cookie = await signInCookie(port, HOST, demoUsers[1]);
  const verifier = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
  const redirectUri = demoApp.redirectUris[0];
  const consent = await send(
    port,
    HOST,
    "POST",
    "/_auth/app",
    new URLSearchParams({
      client_id: demoApp.id,
      redirect_uri: redirectUri,
      response_type: "code",
      state: "bench",
      scope: "registrations",
      code_challenge: challenge,
      code_challenge_method: "S256",
      approve: "yes",
    }).toString(),
    { ...form, Cookie: cookie },
  );
  const code = new URL(String(consent.headers.location)).searchParams.get("code");
  if (!code) throw new Error(`consent failed: ${consent.status} ${consent.body}`);
  const tokenReply = await send(
    port,
    HOST,
    "POST",
    "/data-api/token",
    new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: demoApp.id, code_verifier: verifier }).toString(),
    form,
  );
  return (JSON.parse(tokenReply.body) as { access_token: string }).access_token;
}

export async function runDataApi(port: number): Promise<void> {
  const token = await accessToken(port);
  const bearer = { Authorization: `Bearer ${token}` };
  const jsonBearer = { ...bearer, "Content-Type": "application/json" };

  // 10,000 registrations through the API itself, which also gives the create rate.
  const ids: string[] = [];
  const createStarted = performance.now();
  await inParallel(LIST_ROWS, async (i) => {
    const created = await send(
      port,
      HOST,
      "PUT",
      "/data-api/Registration/",
      JSON.stringify({ club: demoClubs[0].id, name: `Bench form ${i}, "quoted"`, gst_rate: 13, tags: ["bench"], open_time: 1_800_000_000_000 + i }),
      jsonBearer,
    );
    if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.body}`);
    ids.push(String(created.headers.location).split("/").pop()!);
  });
  report("entity_create_per_second", LIST_ROWS / ((performance.now() - createStarted) / 1000), "creates/s", { concurrency: CONCURRENCY });

  const getTimes: number[] = [];
  for (let i = 0; i < GETS; i++) {
    const response = await send(port, HOST, "GET", `/data-api/Registration/${ids[i * 7]}`, undefined, bearer);
    if (response.status !== 200) throw new Error(`get failed: ${response.status}`);
    getTimes.push(response.ms);
  }
  getTimes.sort((a, b) => a - b);
  report("entity_get_p50", percentile(getTimes, 50), "ms", { requests: GETS, serial: true });
  report("entity_get_p99", percentile(getTimes, 99), "ms", { requests: GETS, serial: true });

  const listTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const list = await send(port, HOST, "GET", `/data-api/Registration/?limit=${LIST_ROWS}&filters=${encodeURIComponent("name^bench form")}`, undefined, {
      ...bearer,
      Accept: "text/x-z4-api-list",
    });
    const rows = list.body.split("\r\n").length - 2;
    if (rows !== LIST_ROWS) throw new Error(`list returned ${rows} rows`);
    listTimes.push(list.ms);
    bytes = Buffer.byteLength(list.body);
  }
  listTimes.sort((a, b) => a - b);
  report("csv_list_10000_rows_p50", percentile(listTimes, 50), "ms", { rows: LIST_ROWS, bytes, runs: 5 });

  await runFanOut(port, token, ids[0]!);
}

/** Time from a save's response to its arrival on each of 1,000 sockets subscribed to the entity. */
async function runFanOut(port: number, token: string, registrationId: string): Promise<void> {
  const bearer = { Authorization: `Bearer ${token}` };
  const sockets: WebSocket[] = [];
  const arrivals: ((at: number) => void)[] = [];
  const conns: string[] = [];
  await inParallel(SOCKETS, async (i) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/data-api/socket?instance=bench-${i}`, { headers: { Host: `${HOST}:${port}` } });
    sockets.push(ws);
    conns[i] = await new Promise<string>((resolve, reject) => {
      ws.on("error", reject);
      ws.on("open", () => ws.send(JSON.stringify({ type: "api-auth", token })));
      ws.on("message", (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { type: string; conn?: string };
        if (frame.type === "hello") resolve(frame.conn!);
        if (frame.type === "data") arrivals[i]?.(performance.now());
      });
    });
  });
  await inParallel(SOCKETS, async (i) => {
    const subscribed = await send(port, HOST, "POST", `/data-api/Registration/${registrationId}/subscribe?conn=${conns[i]}`, "", bearer);
    if (subscribed.status !== 200) throw new Error(`subscribe failed: ${subscribed.status} ${subscribed.body}`);
  });
  const lastArrival: number[] = [];
  const medianArrival: number[] = [];
  for (let round = 0; round < 5; round++) {
    const arrived = Array.from({ length: SOCKETS }, (_, i) => new Promise<number>((resolve) => (arrivals[i] = resolve)));
    const started = performance.now();
    const saved = await send(port, HOST, "POST", `/data-api/Registration/${registrationId}/`, JSON.stringify({ name: `Fan-out ${round}` }), {
      ...bearer,
      "Content-Type": "application/json",
    });
    if (saved.status !== 200) throw new Error(`save failed: ${saved.status}`);
    const times = (await Promise.all(arrived)).map((at) => at - started).sort((a, b) => a - b);
    lastArrival.push(times[times.length - 1]!);
    medianArrival.push(percentile(times, 50));
  }
  lastArrival.sort((a, b) => a - b);
  medianArrival.sort((a, b) => a - b);
  report("save_to_1000_sockets_all_p50", percentile(lastArrival, 50), "ms", { sockets: SOCKETS, rounds: 5, measured_from: "save request sent" });
  report("save_to_1000_sockets_median_arrival_p50", percentile(medianArrival, 50), "ms", { sockets: SOCKETS, rounds: 5 });
  for (const ws of sockets) ws.close(1000);
}
