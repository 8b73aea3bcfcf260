// The readiness page of the inspector: the report of one merchant grouped like the go-live
// checklist, each rule pass / fail / not yet exercised with its evidence linked to the journal.
// Built with DOM APIs and textContent only: nothing a merchant sent can inject markup here.
import { INSPECTOR_CSS, inspectorHeader, JSON_VIEW_SCRIPT } from "../routes/inspector-style";

export function readinessPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Go-live readiness — service emulator</title>
<link rel="icon" href="data:,">
<style>${INSPECTOR_CSS}
  .summary { font-size: 1.05rem; font-weight: 600; margin: 0.25rem 0; }
  .rule { border-top: 1px solid var(--line); padding: 0.6rem 0; }
  .rule:first-of-type { border-top: 0; }
  .rule h3 { font-size: 0.95rem; margin: 0 0 0.2rem; display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: baseline; }
  .rule code { font-size: 0.85rem; }
  .rule p { margin: 0.15rem 0; }
  .rule .section, .rule .note { color: var(--muted); font-size: 0.88rem; }
  .evidence { margin: 0.25rem 0 0; padding-left: 1.2rem; font-size: 0.85rem; }
  .evidence a { color: var(--accent); word-break: break-all; }
</style>
</head>
<body>
${inspectorHeader("readiness")}
<main>
  <section class="panel" aria-labelledby="about">
    <h2 id="about">Go-live readiness</h2>
    <p>Every contract rule a merchant's traffic can break, judged from the journal as it flows (passive) or by notifications sent to the merchant's webhook URL (active checks). Emulator resets do not clear it; "Start over" does.</p>
    <form class="row" id="controls" onsubmit="return false">
      <label for="merchant">Merchant<select id="merchant"></select></label>
      <button id="active" type="button" class="primary">Run active webhook checks</button>
      <button id="clear" type="button" class="danger">Start over</button>
    </form>
    <p id="status" role="status" aria-live="polite">Loading the report…</p>
    <p class="summary" id="summary"></p>
  </section>
  <div id="groups"></div>
</main>
<script>
(() => {
  ${JSON_VIEW_SCRIPT}
  const base = "/__emulator";
  const select = document.getElementById("merchant");
  const status = document.getElementById("status");
  const groupsEl = document.getElementById("groups");
  const LABEL = { pass: "Pass", fail: "Fail", not_exercised: "Not yet exercised" };
  const post = (path, body) => fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const el = (tag, props, ...children) => { const e = document.createElement(tag); Object.assign(e, props); e.append(...children); return e; };

  function evidenceItem(e) {
    const li = el("li", {});
    if (e.entry) {
      // The journal was reset since: the entry travels with the report.
      const details = el("details", {}, el("summary", { textContent: e.summary + " (before a reset)" }), jsonView(e.entry));
      li.append(details);
    } else {
      li.append(el("a", { href: base + "/journal/" + e.seq, textContent: "#" + e.seq + " " + e.summary }));
    }
    return li;
  }

  function render(report) {
    const s = report.summary;
    document.getElementById("summary").textContent = (report.ready ? "No rule fails. " : "Not ready: ") +
      s.pass + " pass, " + s.fail + " fail, " + s.not_exercised + " not yet exercised" +
      (report.active_checks ? " · active checks ran " + report.active_checks.ran_at : " · active checks not run yet");
    groupsEl.replaceChildren(...report.groups.map((group) => {
      const section = el("section", { className: "panel" });
      const id = "group-" + group.id;
      section.setAttribute("aria-labelledby", id);
      section.append(el("h2", { id, textContent: group.title }));
      for (const rule of group.rules) {
        const article = el("article", { className: "rule", id: "rule-" + rule.id });
        article.dataset.verdict = rule.verdict;
        const badge = el("span", { className: "badge " + rule.verdict, textContent: LABEL[rule.verdict] });
        article.append(
          el("h3", {}, badge, el("code", { textContent: rule.id }), el("span", { textContent: rule.kind === "active" ? "(active)" : "" })),
          el("p", { textContent: rule.sentence }),
          el("p", { className: "section", textContent: "Contract: " + rule.section }),
          el("p", { className: "note", textContent: rule.note }),
        );
        if (rule.evidence.length > 0) {
          article.append(el("ul", { className: "evidence", ariaLabel: "Evidence for " + rule.id }, ...rule.evidence.map(evidenceItem)));
        }
        section.append(article);
      }
      return section;
    }));
  }

  async function load() {
    try {
      const res = await fetch(base + "/readiness?merchant=" + encodeURIComponent(select.value || "m_demo"));
      const body = await res.json();
      if (!res.ok) { status.textContent = body.error_description; return; }
      render(body);
      status.textContent = "Updated " + new Date().toLocaleTimeString();
    } catch (err) { status.textContent = "Cannot reach the emulator: " + err; }
  }
  async function merchants() {
    const body = await (await fetch(base + "/merchants")).json();
    const wanted = new URLSearchParams(location.search).get("merchant") || "m_demo";
    select.replaceChildren(...body.merchants.map((m) => el("option", { value: m.id, textContent: m.id + " — " + m.name, selected: m.id === wanted })));
    const clock = await (await fetch(base + "/clock")).json();
    document.getElementById("clock").textContent = clock.now;
  }
  select.addEventListener("change", () => { history.replaceState(null, "", "?merchant=" + encodeURIComponent(select.value)); load(); });
  document.getElementById("active").addEventListener("click", async (event) => {
    event.target.disabled = true;
    status.textContent = "Sending the active checks to the merchant's webhook URL…";
    const res = await post("/readiness/active", { merchant_id: select.value });
    const body = await res.json();
    event.target.disabled = false;
    if (!res.ok) { status.textContent = body.error_description; return; }
    render(body);
    status.textContent = "Active checks done.";
  });
  document.getElementById("clear").addEventListener("click", async () => {
    await post("/readiness/clear", { merchant_id: select.value });
    await load();
    status.textContent = "The report starts over.";
  });
  merchants().then(load);
  setInterval(load, 3000);
})();
</script>
</body>
</html>`;
}
