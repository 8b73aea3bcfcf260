import { type ChildProcess, spawn } from "node:child_process";
import autocannon from "autocannon";

// npm run bench:emulator — GET /core/sessions/{hash}/ with a valid token and the rate limit
// raised. The emulator runs in its own process on its own free port (never 4010), so the load
// generator does not share its event loop. Targets: ≥ 5,000 req/s, p99 ≤ 10 ms.

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function startEmulator(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "emulator/src/main.ts", "--port", "0", "--host", "127.0.0.1"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
    child.stdout?.on("data", function onData(chunk: Buffer) {
      out += chunk.toString();
      const url = /service API on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        child.stdout?.off("data", onData);
        child.removeAllListeners("exit");
        resolve({ url, child });
      }
    });
  });
}

async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const { url, child } = await startEmulator();
try {
  const headers = { "content-type": "application/json" };
  await json(`${url}/__emulator/config`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ rate_limit_per_minute: 100_000_000 }),
  });
  const hash = "b".repeat(64);
  await json(`${url}/__emulator/tradeins`, {
    method: "POST",
    headers,
    body: JSON.stringify({ session_hash: hash, value: 15000 }),
  });
  const token = await json(`${url}/oauth2/token/`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from("demo-client:demo-client-secret").toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=password&username=merchant-admin&password=merchant-password&scope=core",
  });

  const target = `${url}/core/sessions/${hash}/`;
  console.log(`autocannon: GET ${target}, ${CONNECTIONS} connections, ${DURATION_S} s`);
  const result = await autocannon({
    url: target,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${token.access_token as string}` },
  });
  const ok = result["2xx"];
  const bad = result.non2xx + result.errors + result.timeouts;
  console.log(
    [
      `requests/s  avg ${Math.round(result.requests.average)}  (min ${result.requests.min}, max ${result.requests.max})`,
      `latency ms  p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`,
      `responses   2xx ${ok}  other ${bad}`,
      `target      >= 5000 req/s and p99 <= 10 ms: ${
        result.requests.average >= 5000 && result.latency.p99 <= 10 && bad === 0 ? "MET" : "NOT MET"
      }`,
    ].join("\n"),
  );
} finally {
  child.kill("SIGTERM");
}
