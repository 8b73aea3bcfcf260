// CSS lives inside the shadow roots, so the merchant's styles and the SDK's never leak into each
// other. Colours meet WCAG AA contrast (checked by the axe scan in emulator/e2e).

const base = `
:host { all: initial; display: block; font: 15px/1.45 system-ui, sans-serif; color: #1b1f24; }
* { box-sizing: border-box; }
button { font: inherit; cursor: pointer; border-radius: 6px; padding: .5em 1em; border: 1px solid #0b5cad; }
button.primary { background: #0b5cad; color: #fff; }
button.secondary { background: #fff; color: #0b5cad; }
button:disabled { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.test { font-size: .75em; background: #fde68a; color: #4a3800; border-radius: 4px; padding: 0 .35em; margin-inline-start: .4em; }
.error { color: #a3141c; }
`;

export const teaserCss = `${base}
.teaser { border: 1px solid #c9d6e3; background: #f3f8fd; border-radius: 8px; padding: .75em 1em; display: flex; gap: 1em; align-items: center; justify-content: space-between; flex-wrap: wrap; }
.teaser p { margin: 0; }
.offer strong { color: #0b4a8b; }
`;

export const modalCss = `${base}
dialog { border: none; border-radius: 10px; padding: 0; width: min(34rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); overflow: auto; box-shadow: 0 10px 40px rgba(0,0,0,.3); color: #1b1f24; background: #fff; }
dialog::backdrop { background: rgba(15, 23, 42, .55); }
.head { display: flex; justify-content: space-between; align-items: center; padding: 1em 1.25em; border-bottom: 1px solid #e2e8f0; }
h2 { margin: 0; font-size: 1.2em; }
h3 { margin: 0 0 .75em; font-size: 1.05em; }
.body { padding: 1.25em; }
.close { border: none; background: transparent; color: #1b1f24; font-size: 1.4em; line-height: 1; padding: .2em .45em; }
label, legend { display: block; font-weight: 600; margin: .75em 0 .3em; }
select { font: inherit; width: 100%; padding: .45em; border: 1px solid #64748b; border-radius: 6px; background: #fff; color: #1b1f24; }
fieldset { border: 1px solid #cbd5e1; border-radius: 8px; margin: 0 0 .75em; padding: .25em .9em .6em; }
fieldset label { font-weight: 400; display: flex; gap: .5em; align-items: center; margin: .3em 0; }
.actions { display: flex; gap: .75em; justify-content: flex-end; margin-top: 1.25em; }
.step { color: #475569; font-size: .9em; margin: 0 0 .25em; }
table { width: 100%; border-collapse: collapse; margin-bottom: 1em; }
th, td { text-align: start; padding: .35em .25em; border-bottom: 1px solid #e2e8f0; }
td.num, th.num { text-align: end; }
dl { display: grid; grid-template-columns: 1fr auto; gap: .35em 1em; margin: 0 0 1em; }
dt { margin: 0; } dd { margin: 0; text-align: end; font-variant-numeric: tabular-nums; }
dl .total { font-weight: 700; }
.offer-value { font-size: 1.6em; font-weight: 700; color: #0b4a8b; margin: .25em 0; }
`;
