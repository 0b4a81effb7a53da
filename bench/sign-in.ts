// Password hashing cost, and whole password sign-ins (attempt, PBKDF2 verify, session hand-over) per second.
import { demoUsers } from "../scripts/demo-data";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../workers/auth/password";
import { percentile, send } from "./http";
import { report } from "./report";

const HASHES = 20;
const SIGN_INS = 120;
const CONCURRENCY = 4;

/** PBKDF2-SHA256 at the Workers cap of 100,000 iterations, through Node's WebCrypto (the same primitive workerd uses). */
export async function runPasswordHashing(): Promise<void> {
  const hashTimes: number[] = [];
  let stored = "";
  for (let i = 0; i < HASHES; i++) {
    const started = performance.now();
    stored = await hashPassword(`bench-password-${i}`);
    hashTimes.push(performance.now() - started);
  }
  const verifyTimes: number[] = [];
  for (let i = 0; i < HASHES; i++) {
    const started = performance.now();
    await verifyPassword(`bench-password-${HASHES - 1}`, stored);
    verifyTimes.push(performance.now() - started);
  }
  hashTimes.sort((a, b) => a - b);
  verifyTimes.sort((a, b) => a - b);
  report("password_hash_p50", percentile(hashTimes, 50), "ms", { iterations: PBKDF2_ITERATIONS, runtime: "node-webcrypto" });
  report("password_verify_p50", percentile(verifyTimes, 50), "ms", { iterations: PBKDF2_ITERATIONS, runtime: "node-webcrypto" });
}

/** Full sign-ins through `wrangler dev`: POST /_auth/attempt, POST /_auth/attempt/verify, POST /_auth/login. */
export async function runSignInThroughput(port: number): Promise<void> {
  const user = demoUsers[1];
  const json = { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" };
  const verifyTimes: number[] = [];
  const signInOnce = async () => {
    const attempt = await send(port, "localhost", "POST", "/_auth/attempt", JSON.stringify({ email: user.email, method: "password" }), json);
    const { attempt_id } = JSON.parse(attempt.body) as { attempt_id: string };
    const verify = await send(port, "localhost", "POST", "/_auth/attempt/verify", JSON.stringify({ attempt_id, verify: { password: user.password } }), json);
    verifyTimes.push(verify.ms);
    const { token } = JSON.parse(verify.body) as { token: string };
    const login = await send(port, "localhost", "POST", "/_auth/login", new URLSearchParams({ token }).toString(), {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
    });
    if (login.status !== 303) throw new Error(`sign-in failed: ${login.status} ${login.body}`);
  };
  for (let i = 0; i < 5; i++) await signInOnce();
  verifyTimes.length = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SIGN_INS) {
        next++;
        await signInOnce();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  verifyTimes.sort((a, b) => a - b);
  report("signin_password_per_second", SIGN_INS / seconds, "sign-ins/s", { sign_ins: SIGN_INS, concurrency: CONCURRENCY, requests_per_sign_in: 3 });
  report("signin_verify_request_p50", percentile(verifyTimes, 50), "ms", { concurrency: CONCURRENCY });
}
