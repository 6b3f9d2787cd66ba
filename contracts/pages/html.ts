/** Building blocks of the library's self-contained HTML pages: escaping and the layout. */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/**
 * The pages load nothing from anywhere (no CDN, no fonts, no scripts): styles are
 * inline, and this policy makes the browser refuse anything else.
 */
export const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
} as const;

/**
 * Headers of a page whose every file Qantara serves itself: nothing by default, then `sources`
 * (e.g. `script-src 'self'`), no base, no form posts, no framing, no referrer, revalidated.
 */
export function selfServedPageHeaders(sources: readonly string[]) {
  return {
    'Content-Security-Policy': ["default-src 'none'", ...sources, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join(
      '; ',
    ),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  } as const;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2125; --muted: #5c6670; --bg: #fbfaf7; --card: #fff; --line: #e3e0d8; --accent: #0f6b5c; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e6e1; --muted: #a3a9b0; --bg: #16181b; --card: #1f2226; --line: #33373d; --accent: #5cc5b0; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Naskh Arabic", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 62rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
header.top { border-bottom: 1px solid var(--line); background: var(--card); }
header.top nav { max-width: 62rem; margin: 0 auto; padding: .75rem 1.25rem; display: flex; gap: 1.25rem; flex-wrap: wrap; align-items: baseline; }
header.top nav strong { margin-inline-end: auto; }
a { color: var(--accent); }
h1 { font-size: 2rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; }
code { background: color-mix(in srgb, var(--line) 55%, transparent); padding: .05em .3em; border-radius: 4px; }
pre { background: var(--card); border: 1px solid var(--line); padding: .9rem 1rem; overflow-x: auto; border-radius: 8px; direction: ltr; text-align: left; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; width: 100%; margin: .75rem 0; background: var(--card); }
th, td { border: 1px solid var(--line); padding: .4rem .6rem; text-align: start; vertical-align: top; }
th { background: color-mix(in srgb, var(--line) 40%, var(--card)); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem; margin: 1rem 0; }
.muted { color: var(--muted); }
.method { display: inline-block; min-width: 3.6rem; font-weight: 700; font-family: ui-monospace, monospace; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5rem; }
@media (max-width: 48rem) { .pair { grid-template-columns: 1fr; } }
[dir="rtl"] { font-family: "Noto Naskh Arabic", "Noto Sans Arabic", "DejaVu Sans", system-ui, sans-serif; }
`;

export function page(options: { lang: string; dir?: 'ltr' | 'rtl'; title: string; body: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}" dir="${options.dir ?? 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top"><nav><strong>Qantara · قنطرة</strong><a href="/">Home · الرئيسية</a><a href="/docs">Docs · التوثيق</a><a href="/plans">Plans · الخطط</a><a href="/openapi.json">OpenAPI</a></nav></header>
<main>
${options.body}
</main>
</body>
</html>
`;
}
