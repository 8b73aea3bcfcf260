import type { EmulatorModule } from "../context";
import { CONTROL_PREFIX } from "../http/middleware";

// The live inspector: a plain HTML page that polls the journal. Built with DOM APIs and
// textContent only, so nothing a request carried can inject markup into the page.

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Service emulator — inspector</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 1rem 2rem; background: #fff; color: #1a1a1a; }
  @media (prefers-color-scheme: dark) { body { background: #161616; color: #ececec; } }
  header { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: baseline; }
  table { border-collapse: collapse; width: 100%; margin-top: 1rem; font-size: 0.9rem; }
  th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #8884; vertical-align: top; }
  td.num { font-variant-numeric: tabular-nums; text-align: right; }
  .s2 { color: #17702f; } .s4 { color: #9a5b00; } .s5 { color: #b00020; }
  @media (prefers-color-scheme: dark) { .s2 { color: #6fdc8c; } .s4 { color: #ffb74d; } .s5 { color: #ff8a80; } }
  pre { white-space: pre-wrap; word-break: break-all; margin: 0.3rem 0; font-size: 0.8rem; }
  button, input, select { font: inherit; padding: 0.2rem 0.6rem; }
  :focus-visible { outline: 3px solid #4a90e2; outline-offset: 2px; }
</style>
</head>
<body>
<header>
  <h1>Service emulator</h1>
  <p>Clock: <time id="clock">…</time></p>
  <p id="config"></p>
</header>
<main>
  <form id="controls" onsubmit="return false">
    <label for="filter">Filter by path</label>
    <input id="filter" type="search" placeholder="/core/sessions">
    <label for="kind">Kind</label>
    <select id="kind"><option value="">all</option><option value="request">requests</option><option value="webhook">webhooks</option></select>
    <button id="pause" type="button" aria-pressed="false">Pause</button>
    <button id="clear" type="button">Clear journal</button>
  </form>
  <p id="status" role="status" aria-live="polite">Loading the journal…</p>
  <table>
    <caption>Requests received and webhooks sent, newest first</caption>
    <thead><tr>
      <th scope="col">#</th><th scope="col">Time (emulator clock)</th><th scope="col">Kind</th>
      <th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th>
      <th scope="col">ms</th><th scope="col">Client</th><th scope="col">Details</th>
    </tr></thead>
    <tbody id="rows"></tbody>
  </table>
</main>
<script>
(() => {
  const base = ${JSON.stringify(CONTROL_PREFIX)};
  const rows = document.getElementById("rows");
  const status = document.getElementById("status");
  const pause = document.getElementById("pause");
  const filter = document.getElementById("filter");
  const kind = document.getElementById("kind");
  let last = 0, paused = false, entries = [];
  const cell = (text, cls) => { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; return td; };
  function render() {
    const f = filter.value.trim(), k = kind.value;
    const shown = entries.filter((e) => (!f || e.path.includes(f)) && (!k || e.kind === k)).slice(-300).reverse();
    rows.replaceChildren(...shown.map((e) => {
      const tr = document.createElement("tr");
      tr.append(cell(String(e.seq), "num"), cell(new Date(e.at).toISOString()), cell(e.kind + (e.attempt ? " #" + e.attempt : "")),
        cell(e.method), cell(e.path + (e.query ? "?" + e.query : "")), cell(e.status ? String(e.status) : (e.error || "—"), "num s" + String(e.status)[0]),
        cell(String(e.duration_ms), "num"), cell(e.client_id || ""));
      const td = document.createElement("td");
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "Show";
      const pre = document.createElement("pre");
      pre.textContent = JSON.stringify({ request_headers: e.request_headers, request_body: e.request_body, response_body: e.response_body, fault: e.fault, error: e.error, meta: e.meta }, null, 2);
      details.append(summary, pre); td.append(details); tr.append(td);
      return tr;
    }));
    status.textContent = shown.length + " of " + entries.length + " entries shown" + (paused ? " (paused)" : "");
  }
  async function poll() {
    try {
      if (!paused) {
        const res = await fetch(base + "/journal?after=" + last);
        const body = await res.json();
        if (body.last_seq < last) entries = [];
        entries = entries.concat(body.entries).slice(-2000);
        last = body.last_seq;
        const clock = await (await fetch(base + "/clock")).json();
        document.getElementById("clock").textContent = clock.now;
        const config = await (await fetch(base + "/config")).json();
        document.getElementById("config").textContent = "Rate limit " + config.rate_limit_per_minute + "/min" + (config.maintenance ? " · MAINTENANCE ON" : "");
        render();
      }
    } catch (err) {
      status.textContent = "Cannot reach the emulator: " + err;
    }
    setTimeout(poll, 1000);
  }
  pause.addEventListener("click", () => { paused = !paused; pause.setAttribute("aria-pressed", String(paused)); pause.textContent = paused ? "Resume" : "Pause"; render(); });
  filter.addEventListener("input", render);
  kind.addEventListener("change", render);
  document.getElementById("clear").addEventListener("click", async () => { await fetch(base + "/journal", { method: "DELETE", headers: { "content-type": "application/json" } }); entries = []; last = 0; render(); });
  poll();
})();
</script>
</body>
</html>`;

export const inspectorModule: EmulatorModule = {
  name: "inspector",
  mount(app) {
    app.get(`${CONTROL_PREFIX}/`, (c) => c.html(PAGE));
    app.get(CONTROL_PREFIX, (c) => c.redirect(`${CONTROL_PREFIX}/`, 302));
  },
};
