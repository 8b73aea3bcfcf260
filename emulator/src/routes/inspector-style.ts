// Look and navigation shared by the inspector's pages (journal and controls, readiness report):
// system fonts, light and dark schemes with AA contrast, and a layout that holds at 360 px.

export const INSPECTOR_CSS = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
    --bg: #f6f7f9; --card: #fff; --fg: #1a1a1a; --muted: #555; --line: #d9dce1; --accent: #0b5cad;
    --ok: #17702f; --warn: #8a5200; --bad: #b00020; --code: #f0f2f5; }
  @media (prefers-color-scheme: dark) { :root { --bg: #121314; --card: #1c1d1f; --fg: #ececec;
    --muted: #b4b4b4; --line: #3a3c40; --accent: #8cc4ff; --ok: #6fdc8c; --warn: #ffb74d;
    --bad: #ff8a80; --code: #25272a; } }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45; }
  .top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center;
    padding: 0.75rem 1rem; background: var(--card); border-bottom: 1px solid var(--line); }
  .top h1 { font-size: 1.15rem; margin: 0; }
  .top nav { display: flex; gap: 1rem; }
  .top nav a { color: var(--accent); font-weight: 600; text-decoration: none; padding: 0.25rem 0; }
  .top nav a[aria-current="page"] { text-decoration: underline; text-underline-offset: 4px; }
  .top p { margin: 0; color: var(--muted); }
  main { padding: 1rem; max-width: 80rem; margin: 0 auto; }
  .panel { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
    padding: 0.75rem 1rem; margin-bottom: 1rem; }
  .panel h2 { font-size: 1rem; margin: 0 0 0.5rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
  .row label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); gap: 0.15rem; }
  button, input, select { font: inherit; font-size: 0.95rem; padding: 0.35rem 0.7rem;
    border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg);
    min-height: 2.25rem; }
  button { cursor: pointer; font-weight: 600; }
  button.primary { background: var(--accent); color: var(--card); border-color: var(--accent); }
  button.danger { color: var(--bad); }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9rem; background: var(--card); }
  caption { text-align: left; font-weight: 600; padding: 0.5rem 0; }
  th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  td.num { font-variant-numeric: tabular-nums; }
  .s2 { color: var(--ok); } .s3, .s4 { color: var(--warn); } .s5, .s0 { color: var(--bad); }
  .path { word-break: break-all; }
  pre { white-space: pre-wrap; word-break: break-word; margin: 0.25rem 0 0.5rem; font-size: 0.8rem;
    background: var(--code); padding: 0.5rem; border-radius: 6px; max-height: 24rem; overflow: auto; }
  details summary { cursor: pointer; color: var(--accent); font-weight: 600; }
  .json-key { color: var(--accent); } .json-str { color: var(--ok); } .json-num { color: var(--warn); }
  h3.part { font-size: 0.8rem; margin: 0.5rem 0 0; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
  .badge { display: inline-block; padding: 0.1rem 0.5rem; border-radius: 999px; font-size: 0.8rem;
    font-weight: 700; border: 1px solid currentColor; white-space: nowrap; }
  .badge.pass { color: var(--ok); } .badge.fail { color: var(--bad); } .badge.not_exercised { color: var(--muted); }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  @media (max-width: 700px) {
    main { padding: 0.5rem; }
    table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.cards tr { display: block; border-bottom: 2px solid var(--line); padding: 0.4rem 0; }
    table.cards td { display: flex; gap: 0.5rem; border: 0; padding: 0.15rem 0.5rem; }
    table.cards td::before { content: attr(data-label); font-weight: 600; min-width: 6.5rem; color: var(--muted); }
    table.cards td.details { display: block; }
    table.cards td.details::before { content: none; }
  }
`;

/** Pretty-prints JSON into `pre` with coloured keys, strings and numbers (textContent only). */
export const JSON_VIEW_SCRIPT = `
  function jsonView(value) {
    const pre = document.createElement("pre");
    const text = JSON.stringify(value, null, 2) ?? "";
    const re = /("(?:[^"\\\\]|\\\\.)*")(\\s*:)?|(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)/g;
    let last = 0, m;
    while ((m = re.exec(text))) {
      pre.append(text.slice(last, m.index));
      const span = document.createElement("span");
      span.className = m[1] ? (m[2] ? "json-key" : "json-str") : "json-num";
      span.textContent = m[1] ?? m[3];
      pre.append(span);
      if (m[2]) pre.append(m[2]);
      last = re.lastIndex;
    }
    pre.append(text.slice(last));
    return pre;
  }
`;

export function inspectorHeader(current: "journal" | "readiness"): string {
  const link = (href: string, name: "journal" | "readiness", text: string) =>
    `<a href="${href}"${current === name ? ' aria-current="page"' : ""}>${text}</a>`;
  return `<header class="top">
  <h1>Service emulator</h1>
  <nav aria-label="Inspector">${link("/__emulator/", "journal", "Journal and controls")}${link("/__emulator/readiness/page", "readiness", "Go-live readiness")}</nav>
  <p>Clock: <time id="clock">…</time></p>
</header>`;
}
