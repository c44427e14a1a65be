// The UI's only stylesheet and script, served by the app itself (no CDN: the CSP allows 'self'
// only). Kept as strings so `tsc` ships them in dist/ with the code that serves them.

/** Readable on a phone: one column, wrapped long ids, system fonts, no remote anything. */
export const STYLES = `
:root { color-scheme: light dark; --dim: #6b6b6b; --line: #8884; --accent: #1a5fb4; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, sans-serif; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; }
header.top nav { display: flex; gap: 1rem; flex-wrap: wrap; }
header.top form.signout { margin-left: auto; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
a { color: var(--accent); }
h1 { font-size: 1.4rem; overflow-wrap: anywhere; }
input, select, textarea, button { font: inherit; }
input[type=search], textarea, input[type=password] { width: 100%; padding: .4rem; }
.searchbar { display: flex; gap: .5rem; flex: 1 1 16rem; max-width: 36rem; }
.searchbar input[type=search] { flex: 1 1 auto; min-width: 0; }
fieldset { border: 1px solid var(--line); margin: .5rem 0; }
.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: .5rem; }
.filters label { display: flex; flex-direction: column; font-size: .9rem; }
.filters label.check { flex-direction: row; gap: .4rem; align-items: center; }
ol.results { list-style: none; padding: 0; }
ol.results li, ol.sources li { padding: .6rem 0; border-bottom: 1px solid var(--line); }
ol.sources { padding-left: 1.6rem; }
form.ask label { display: block; margin: .3rem 0; }
.meta { color: var(--dim); font-size: .9rem; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: .75rem; border: 1px solid var(--line); border-radius: .6rem; padding: 0 .45rem; margin-right: .25rem; }
.frag { margin: .2rem 0; overflow-wrap: anywhere; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
dl.headers { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem; }
dl.headers dt { color: var(--dim); }
dl.headers dd { margin: 0; overflow-wrap: anywhere; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.dim { color: var(--dim); }
details.part { margin: .5rem 0; border-left: 3px solid var(--line); padding-left: .6rem; }
mark { scroll-margin-top: 4rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
ul.evidence { margin: .2rem 0; padding-left: 1.2rem; font-size: .9rem; }
.tree details { margin: .4rem 0; border: 1px solid var(--line); border-radius: .3rem; padding: .3rem .6rem; }
${Array.from({ length: 9 }, (_, d) => `.tree .d${d} { margin-left: ${d * 1.2}rem; }`).join('\n')}
@media (max-width: 40rem) { ${Array.from({ length: 9 }, (_, d) => `.tree .d${d} { margin-left: ${d * 0.4}rem; }`).join(' ')} main { padding: .6rem; } }
.notice { border: 1px solid var(--line); padding: .5rem .8rem; border-radius: .3rem; }
.error { border-color: #c01c28; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: break-word; }
td:first-child { min-width: 6rem; }
.status-pass { color: #26a269; } .status-warn { color: #c64600; } .status-fail { color: #c01c28; }
`;

/** `/` focuses the search box, as in most mail clients, unless the reader is typing somewhere. */
export const SCRIPT = `
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const box = document.getElementById('q');
  if (!box) return;
  event.preventDefault();
  box.focus();
});
`;
