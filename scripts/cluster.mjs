// Several shop instances on PostgreSQL behind Debian's nginx (round robin), with the service
// emulator: what `npm run demo:cluster`, the Playwright project `cluster` and
// `npm run bench:cluster` start. Nothing is sticky: every instance reads sessions, tokens, job
// claims and the inspector's feed from the database (docs/decisions/scaling.md).
//
//   node scripts/cluster.mjs [--instances 2] [--port 3000] [--database shop_cluster] [--fresh]
//                            [--no-build] [--control-port N]
//
// Ports: the balancer on --port, instance i on port + i, the emulator on EMULATOR_PORT (4010).
// SHOP_BASE_URL and the emulator's merchant (its webhook base and allowed origins) point at the
// balancer. --control-port starts a small local HTTP API for tests: GET /instances,
// POST /instances/<i>/stop (SIGKILL: a crash, not a shutdown) and /instances/<i>/start.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { aptInstall, has, isRoot } from "./lib/apt.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase, printPrefixed, run } from "./lib/run.mjs";
import {
  createDatabases,
  postgresUrl,
  resetDatabases,
  startPostgres,
  stopPostgres,
} from "./postgres.mjs";

const { values } = parseArgs({
  options: {
    instances: { type: "string", default: "2" },
    port: { type: "string", default: "3000" },
    database: { type: "string", default: "shop_cluster" },
    fresh: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    "control-port": { type: "string" },
    "emulator-port": { type: "string" },
  },
});

/** Debian's nginx, installed with apt-get when missing (as for Chromium and PostgreSQL). */
export function ensureNginx() {
  const found = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));
  if (found) return found;
  if (has("nginx")) return "nginx";
  aptInstall("nginx-light");
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
}

/**
 * The balancer's configuration: round robin over the instances (nginx's default), no
 * stickiness. A refused connection (an instance down) is retried on the next instance, POSTs
 * included, since nothing reached the dead one; a request an instance already received is
 * never sent twice (`non_idempotent` is not set). `X-Shop-Instance` names the instance that
 * answered, for tests and the curious.
 */
export function nginxConfig({ prefix, port, instancePorts }) {
  return `# Written by scripts/cluster.mjs; not edited by hand.
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
${isRoot ? "user root;\n" : ""}events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  client_max_body_size 1m;
  upstream shop {
${instancePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    listen [::1]:${port};
    server_name localhost;
    location / {
      proxy_pass http://shop;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      add_header X-Shop-Instance $upstream_addr always;
    }
  }
}
`;
}

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

async function main() {
  loadEnv();
  const count = Number(values.instances);
  const port = Number(values.port);
  const emulatorPort = Number(values["emulator-port"] ?? process.env.EMULATOR_PORT ?? 4010);
  const balancer = `http://localhost:${port}`;
  const databaseUrl = postgresUrl(values.database);
  const instancePorts = Array.from({ length: count }, (_, i) => port + i + 1);
  const nginx = ensureNginx();

  console.log(`━━━ PostgreSQL: ${databaseUrl}`);
  const startedPostgres = startPostgres();
  if (values.fresh) await resetDatabases([values.database]);
  else await createDatabases([values.database]);
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    SHOP_BASE_URL: balancer,
    SERVICE_API_BASE_URL: `http://localhost:${emulatorPort}`,
    SERVICE_ASSETS_URL: `http://localhost:${emulatorPort}/assets`,
    // nginx appends the address it saw to X-Forwarded-For (lib/auth/client-address.ts).
    TRUSTED_PROXY_HOPS: "1",
  };
  prepareDatabase(databaseUrl);
  if (!values["no-build"]) {
    console.log("━━━ Build");
    run(process.execPath, ["node_modules/next/dist/bin/next", "build"], { env });
  }

  const children = new Set();
  let stopping = false;
  const stopAll = (code) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    // Not unref'd: with the children gone nothing else may keep this process alive, and
    // PostgreSQL must still be stopped.
    setTimeout(() => {
      // PostgreSQL goes too if this run started it (the instances have let go by now).
      if (startedPostgres) stopPostgres();
      process.exit(code);
    }, 500);
  };
  const start = (name, command, args, childEnv, { essential = true } = {}) => {
    const child = spawn(command, args, {
      cwd: root,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    printPrefixed(`[${name}] `, child);
    children.add(child);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (essential && !stopping) {
        console.log(`[${name}] exited (${signal ?? code}); stopping the others`);
        stopAll(code ?? 1);
      }
    });
    return child;
  };

  console.log(`━━━ Emulator on :${emulatorPort}, webhooks to ${balancer}`);
  start(
    "emulator",
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "emulator/src/main.ts", "--port", String(emulatorPort)],
    { ...process.env, EMULATOR_PORT: String(emulatorPort), EMULATOR_SHOP_URL: balancer },
  );

  // Instances: not "essential", so killing one (the test's crash) leaves the others running.
  const instances = instancePorts.map((p, i) => ({ name: `shop-${i + 1}`, port: p, child: null }));
  const startInstance = (instance) => {
    instance.child = start(
      instance.name,
      process.execPath,
      ["node_modules/next/dist/bin/next", "start", "-p", String(instance.port)],
      { ...env, SHOP_INSTANCE: instance.name },
      { essential: false },
    );
    return waitFor(`http://127.0.0.1:${instance.port}/`);
  };
  console.log(`━━━ ${count} shop instances on ${instancePorts.join(", ")}`);
  await Promise.all(instances.map(startInstance));

  const prefix = path.join(root, ".cluster", `nginx-${port}`);
  for (const dir of ["", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(prefix, dir), { recursive: true });
  }
  const conf = path.join(prefix, "nginx.conf");
  writeFileSync(conf, nginxConfig({ prefix, port, instancePorts }));
  console.log(`━━━ nginx on :${port} (${path.relative(root, conf)})`);
  start("nginx", nginx, ["-p", prefix, "-c", conf]);
  await waitFor(`${balancer}/`);
  await waitFor(`http://localhost:${emulatorPort}/__emulator/health`);

  if (values["control-port"]) {
    const control = createServer((req, res) => {
      const reply = (status, body) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      // A child killed by a signal has a null exitCode and a signalCode.
      const running = (x) => x.child !== null && x.child.exitCode === null && !x.child.signalCode;
      const list = () =>
        instances.map((x) => ({ name: x.name, port: x.port, running: running(x) }));
      const match = /^\/instances\/(\d+)\/(stop|start)$/.exec(req.url ?? "");
      if (req.method === "GET" && req.url === "/instances") return reply(200, list());
      const instance = match ? instances[Number(match[1]) - 1] : undefined;
      if (req.method !== "POST" || !instance) return reply(404, { error: "not_found" });
      if (match?.[2] === "stop") {
        if (!running(instance)) return reply(200, list());
        instance.child.once("exit", () => reply(200, list()));
        instance.child.kill("SIGKILL");
        return;
      }
      if (running(instance)) return reply(200, list());
      startInstance(instance).then(
        () => reply(200, list()),
        (error) => reply(500, { error: String(error) }),
      );
    });
    control.listen(Number(values["control-port"]), "127.0.0.1");
    children.add({ exitCode: null, kill: () => control.close() });
  }
  console.log(
    `Shop (balanced over ${count} instances): ${balancer}  Service emulator: http://localhost:${emulatorPort}/__emulator/  (Ctrl-C stops everything)`,
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
