import type { EmulatorModule } from "../context";
import { SERVICE_ENDPOINTS } from "../http/endpoints";
import { CONTROL_PREFIX } from "../http/middleware";
import { INSPECTOR_CSS, inspectorHeader, JSON_VIEW_SCRIPT } from "./inspector-style";

// The live inspector: the journal as it grows, and buttons for what used to take curl (reset,
// the clock, faults, maintenance). Built with DOM APIs and textContent only, so nothing a request
// carried can inject markup into the page. Every control call is a JSON request to the control API.

const ENDPOINT_OPTIONS = ["*", ...SERVICE_ENDPOINTS.map((e) => e.name)]
  .map((name) => `<option value="${name}">${name === "*" ? "every endpoint (*)" : name}</option>`)
  .join("");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Service emulator — inspector</title>
<link rel="icon" href="data:,">
<style>${INSPECTOR_CSS}
  .controls { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); }
  .controls .panel { margin: 0; }
  #faults li { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin: 0.25rem 0; }
  #faults { padding-left: 1rem; margin: 0.5rem 0 0; }
</style>
</head>
<body>
${inspectorHeader("journal")}
<main>
  <div class="controls">
    <section class="panel" aria-labelledby="state-title">
      <h2 id="state-title">Emulator</h2>
      <div class="row">
        <button id="reset" type="button" class="danger">Reset to the seed</button>
        <button id="maintenance" type="button" aria-pressed="false">Maintenance (503)</button>
      </div>
      <p id="config"></p>
    </section>
    <section class="panel" aria-labelledby="clock-title">
      <h2 id="clock-title">Clock</h2>
      <div class="row">
        <button type="button" data-advance="60">+1 min</button>
        <button type="button" data-advance="3600">+1 h</button>
        <button type="button" data-advance="86400">+1 day</button>
        <button id="clock-reset" type="button">Real time</button>
      </div>
      <form id="advance" class="row" style="margin-top:0.5rem">
        <label>Advance by minutes<input id="advance-minutes" type="number" step="1" value="61" inputmode="numeric"></label>
        <button type="submit">Advance</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="faults-title">
      <h2 id="faults-title">Faults</h2>
      <form id="fault" class="row">
        <label>Endpoint<select id="fault-endpoint">${ENDPOINT_OPTIONS}</select></label>
        <label>Status<input id="fault-status" type="number" min="100" max="599" value="503" inputmode="numeric"></label>
        <label>Latency ms<input id="fault-latency" type="number" min="0" max="120000" value="0" inputmode="numeric"></label>
        <label>Times (empty: always)<input id="fault-count" type="number" min="1" value="1" inputmode="numeric"></label>
        <button type="submit">Add fault</button>
      </form>
      <ul id="faults" aria-label="Faults in force"></ul>
    </section>
  </div>
  <section class="panel" aria-labelledby="journal-title" style="margin-top:1rem">
    <h2 id="journal-title">Journal</h2>
    <form id="controls" class="row" onsubmit="return false">
      <label for="filter">Filter by path<input id="filter" type="search" placeholder="/core/sessions"></label>
      <label for="kind">Kind<select id="kind"><option value="">all</option><option value="request">requests</option><option value="webhook">webhooks</option></select></label>
      <button id="pause" type="button" aria-pressed="false">Pause</button>
      <button id="clear" type="button">Clear journal</button>
    </form>
    <p id="status" role="status" aria-live="polite">Loading the journal…</p>
    <table class="cards">
      <caption>Requests received and webhooks sent, newest first</caption>
      <thead><tr>
        <th scope="col">#</th><th scope="col">Time (emulator clock)</th><th scope="col">Kind</th>
        <th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th>
        <th scope="col">ms</th><th scope="col">Client</th><th scope="col">Details</th>
      </tr></thead>
      <tbody id="rows"></tbody>
    </table>
  </section>
</main>
<script>
(() => {
  ${JSON_VIEW_SCRIPT}
  const base = ${JSON.stringify(CONTROL_PREFIX)};
  const $ = (id) => document.getElementById(id);
  const rows = $("rows"), status = $("status"), pause = $("pause"), filter = $("filter"), kind = $("kind");
  let last = 0, paused = false, entries = [], maintenance = false;
  const send = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) status.textContent = "The emulator refused: " + (json.error_description || res.status);
    return json;
  };
  const cell = (label, text, cls) => { const td = document.createElement("td"); td.dataset.label = label; td.textContent = text; if (cls) td.className = cls; return td; };
  function part(title, value) {
    if (value === undefined || value === null) return [];
    const h = document.createElement("h3"); h.className = "part"; h.textContent = title;
    return [h, jsonView(value)];
  }
  function render() {
    const f = filter.value.trim(), k = kind.value;
    const shown = entries.filter((e) => (!f || e.path.includes(f)) && (!k || e.kind === k)).slice(-300).reverse();
    rows.replaceChildren(...shown.map((e) => {
      const tr = document.createElement("tr");
      tr.id = "seq-" + e.seq;
      tr.append(cell("#", String(e.seq), "num"), cell("Time", new Date(e.at).toISOString()), cell("Kind", e.kind + (e.attempt ? " #" + e.attempt : "")),
        cell("Method", e.method), cell("Path", e.path + (e.query ? "?" + e.query : ""), "path"), cell("Status", e.status ? String(e.status) : (e.error || "no answer"), "num s" + String(e.status)[0]),
        cell("ms", String(e.duration_ms), "num"), cell("Client", e.client_id || ""));
      const td = document.createElement("td");
      td.className = "details";
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "Show";
      summary.setAttribute("aria-label", "Show details of entry " + e.seq);
      details.append(summary, ...part("Request headers", e.request_headers), ...part("Request body", e.request_body),
        ...part("Response body", e.response_body), ...part("Fault", e.fault), ...part("Error", e.error), ...part("Meta", e.meta));
      td.append(details); tr.append(td);
      return tr;
    }));
    status.textContent = shown.length + " of " + entries.length + " entries shown" + (paused ? " (paused)" : "");
  }
  async function refreshState() {
    const clock = await (await fetch(base + "/clock")).json();
    $("clock").textContent = clock.now + (clock.offset_ms ? " (moved " + Math.round(clock.offset_ms / 60000) + " min)" : "");
    const config = await (await fetch(base + "/config")).json();
    maintenance = config.maintenance;
    $("maintenance").setAttribute("aria-pressed", String(maintenance));
    $("config").textContent = "Rate limit " + config.rate_limit_per_minute + " requests/min per client" + (maintenance ? " · maintenance ON (every service route answers 503)" : "");
    const { faults } = await (await fetch(base + "/faults")).json();
    $("faults").replaceChildren(...faults.map((f) => {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.textContent = f.id + ": " + f.endpoint + (f.status ? " → " + f.status : "") + (f.latency_ms ? " after " + f.latency_ms + " ms" : "") + (f.remaining != null ? " (" + f.remaining + " left)" : "");
      const remove = document.createElement("button");
      remove.type = "button"; remove.textContent = "Remove"; remove.setAttribute("aria-label", "Remove fault " + f.id);
      remove.addEventListener("click", async () => { await send("DELETE", "/faults/" + encodeURIComponent(f.id)); refreshState(); });
      li.append(text, remove);
      return li;
    }));
  }
  async function poll() {
    try {
      if (!paused) {
        const body = await (await fetch(base + "/journal?after=" + last)).json();
        if (body.last_seq < last) entries = [];
        entries = entries.concat(body.entries).slice(-2000);
        last = body.last_seq;
        await refreshState();
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
  $("clear").addEventListener("click", async () => { await send("DELETE", "/journal"); entries = []; last = 0; render(); });
  $("reset").addEventListener("click", async () => { await send("POST", "/reset"); entries = []; last = 0; status.textContent = "Back to the seed."; refreshState(); });
  $("maintenance").addEventListener("click", async () => { await send("PATCH", "/config", { maintenance: !maintenance }); refreshState(); });
  for (const button of document.querySelectorAll("[data-advance]")) {
    button.addEventListener("click", async () => { await send("POST", "/clock/advance", { seconds: Number(button.dataset.advance) }); refreshState(); });
  }
  $("clock-reset").addEventListener("click", async () => { await send("POST", "/clock/reset"); refreshState(); });
  $("advance").addEventListener("submit", async (event) => { event.preventDefault(); await send("POST", "/clock/advance", { minutes: Number($("advance-minutes").value) }); refreshState(); });
  $("fault").addEventListener("submit", async (event) => {
    event.preventDefault();
    const count = $("fault-count").value;
    const statusValue = Number($("fault-status").value);
    await send("POST", "/faults", { endpoint: $("fault-endpoint").value, ...(statusValue ? { status: statusValue } : {}),
      latency_ms: Number($("fault-latency").value) || 0, ...(count ? { count: Number(count) } : {}) });
    refreshState();
  });
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
