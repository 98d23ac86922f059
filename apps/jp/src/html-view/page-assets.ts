/*
 * The page's one style sheet and one script, inline: the page's CSP allows exactly these (by
 * hash) and nothing else. The script only shows a bar's numbers on hover and focus; the page
 * reads fully without it. Code is coloured by class: the kinds the terminal paints
 * (render/render-styles.ts) in One Light and One Dark colours, by the reader's colour scheme.
 */

export const PAGE_STYLE = `
:root{color-scheme:light dark;--dim:#777;--hk:#a626a4;--hc:#0184bc;--hb:#4078f2;--hy:#986801;--hg:#50a14f;--hr:#e45649;--hd:#a0a1a7;--u:#4e79a7;--w:#f28e2b;--r:#59a14f;--o:#e15759;--x:#b07aa1;--f:#76b7b2;--d:#bab0ac;--s:#ff9da7}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1rem 0 .3rem}h3{font-size:.95rem;margin:.6rem 0 .2rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:rgba(127,127,127,.1);padding:.4rem .6rem;margin:.2rem 0;max-height:40rem;overflow:auto}
code{font-size:.92em}.dim,small{color:var(--dim)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dl.facts dt{color:var(--dim)}dl.facts dd{margin:0}
.scroll{overflow-x:auto;padding-bottom:.3rem}svg rect.u,.key.u::before{fill:var(--u);background:var(--u)}
svg rect.w,.key.w::before{fill:var(--w);background:var(--w)}svg rect.r,.key.r::before{fill:var(--r);background:var(--r)}
svg rect.o,.key.o::before{fill:var(--o);background:var(--o)}svg rect.x,.key.x::before{fill:var(--x);background:var(--x)}svg rect.f,.key.f::before{fill:var(--f);background:var(--f)}
svg rect.d,.key.d::before{fill:var(--d);background:var(--d)}svg rect.s,.key.s::before{fill:var(--s);background:var(--s)}
.key::before{content:"";display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
@media (prefers-color-scheme:dark){:root{--hk:#c678dd;--hc:#56b6c2;--hb:#61afef;--hy:#d19a66;--hg:#98c379;--hr:#e06c75;--hd:#7f848e}}
svg{display:block;overflow:visible}.plot-row{display:grid;grid-template-columns:60px minmax(0,1fr);align-items:start}
svg line.grid{stroke:currentColor;stroke-opacity:.15}svg text.axis{fill:currentColor;fill-opacity:.7;font-size:11px}
svg text.axis-title{fill:currentColor;fill-opacity:.55;font-size:11px;font-style:italic}svg text.empty{fill:currentColor;fill-opacity:.6;font-size:13px}
svg g.bar{outline:none}svg g.bar:hover rect,svg g.bar:focus rect{stroke:currentColor;stroke-width:1}
#readout{min-height:1.5em;font-variant-numeric:tabular-nums}
.turn{border-top:1px solid rgba(127,127,127,.4);content-visibility:auto;contain-intrinsic-size:auto 20rem}
.usage{font-variant-numeric:tabular-nums}.resource{margin:.3rem 0 .3rem 1rem}.res-head{margin:.1rem 0}
.status{border-radius:.3em;padding:0 .35em;font-size:.85em;background:rgba(127,127,127,.2)}
.status.new{background:rgba(118,183,178,.35)}.status.refreshed{background:rgba(242,142,43,.35)}.status.superseded,.status.error{background:rgba(255,157,167,.45)}
.tool-call,.tool-result{margin-left:1rem}.answer{border-left:3px solid var(--r);padding-left:.6rem;min-width:0}
.md h4,.md h5,.md h6{margin:.7rem 0 .25rem}.md h4{font-size:1rem}.md h5{font-size:.95rem}.md h6{font-size:.9rem}.md h6.md-h4,.md h6.md-h5,.md h6.md-h6{font-weight:600;font-style:italic}
.md blockquote{margin:.4rem 0;padding:.1rem .8rem;border-left:4px solid rgba(127,127,127,.55);color:var(--dim)}
.md .table-scroll{overflow-x:auto;max-width:100%;margin:.4rem 0}.md table{border-collapse:collapse}
.md th,.md td{border:1px solid rgba(127,127,127,.45);padding:.2rem .55rem;text-align:left;vertical-align:top}.md th{background:rgba(127,127,127,.12)}
.md pre{white-space:pre;overflow-x:auto}.md :not(pre)>code{background:rgba(127,127,127,.15);border-radius:.2em;padding:0 .2em}
.hljs-keyword,.hljs-selector-tag{color:var(--hk)}.hljs-built_in,.hljs-type,.hljs-property,.hljs-title.class_{color:var(--hc)}
.hljs-literal,.hljs-title,.hljs-tag,.hljs-name{color:var(--hb)}.hljs-number,.hljs-attr,.hljs-attribute,.hljs-symbol{color:var(--hy)}
.hljs-string,.hljs-addition{color:var(--hg)}.hljs-regexp,.hljs-variable,.hljs-template-variable,.hljs-deletion{color:var(--hr)}
.hljs-comment,.hljs-doctag,.hljs-meta{color:var(--hd);font-style:italic}.hljs-section{font-weight:700}
img{max-width:100%;height:auto}
`;

export const PAGE_SCRIPT = `
const readout=document.getElementById('readout');
const show=(event)=>{const bar=event.target.closest&&event.target.closest('g.bar');if(bar&&readout)readout.textContent=bar.getAttribute('aria-label');};
document.addEventListener('mouseover',show);document.addEventListener('focusin',show);
`;
