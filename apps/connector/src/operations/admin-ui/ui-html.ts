/** Escapes text for HTML content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The pages' Content-Security-Policy: no script at all, forms only to this origin, never framed. */
export const UI_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

// Cells of class `opt` are the columns a narrow screen (under 40rem) leaves out, so that the
// columns that matter (state, outcome) stay in view at 390 px without scrolling sideways; cells
// of class `wrap` (messages naming domains and codes) may break anywhere there.
const STYLE = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
a{color:#0b4fb3} a:hover{text-decoration:none}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;color:#0b3d91;padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem;top:.5rem}
header{background:#1d2430;color:#fff;padding:.6rem 1.2rem;display:flex;flex-wrap:wrap;gap:.6rem 1.2rem;align-items:center;width:100%}
header nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.4rem 1rem}
header a{color:#dbe7ff;text-decoration:none} header a:hover,header a[aria-current=page]{text-decoration:underline}
header form{margin-left:auto}
main{padding:1rem 1.2rem;max-width:100%}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;background:#fff} th,td{border-bottom:1px solid #e3e6ea;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f5} .muted{color:#5a626e} .error{color:#a4161a} .ok{color:#1b6e35}
.state-healthy{color:#1b6e35;font-weight:600} .state-degraded{color:#8a4b00;font-weight:600} .state-failing{color:#a4161a;font-weight:600}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.8rem;margin:0 0 1rem;padding:0;list-style:none}
.cards li{background:#fff;border:1px solid #e3e6ea;padding:.6rem .8rem} .cards strong{display:block;font-size:1.4rem}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));gap:.8rem} figure{margin:0;background:#fff;border:1px solid #e3e6ea;padding:.5rem}
svg{max-width:100%;height:auto}
button{cursor:pointer} code{font-size:12px}
time{white-space:nowrap} .product-id{font-size:12px}
@media (max-width:40rem){main{padding:.8rem .6rem} th,td{padding:.3rem;overflow-wrap:break-word} th.opt,td.opt{display:none} a.product,.product-id,tr[data-shop]>th,td.wrap,td.reasons{overflow-wrap:anywhere}}
`;

/** A hidden field carrying the session's CSRF token; every form of a signed-in page has one. */
export function csrfField(csrf: string): string {
  return `<input type="hidden" name="_csrf" value="${esc(csrf)}">`;
}

/** A POST form made of one button. */
export function actionButton(action: string, label: string, csrf: string, name = label): string {
  return `<form method="post" action="${esc(action)}" style="display:inline">${csrfField(csrf)}<button type="submit" name="action" value="${esc(name)}">${esc(label)}</button></form>`;
}

/** The navigation's entries: label and path (Queues is bull-board's own page). */
const NAV: ReadonlyArray<readonly [string, string]> = [
  ['Overview', '/admin/ui'],
  ['Shops', '/admin/ui/shops'],
  ['Products', '/admin/ui/products'],
  ['Failures', '/admin/ui/failures'],
  ['Runs', '/admin/ui/runs'],
  ['Drift', '/admin/ui/drift'],
  ['Alerts', '/admin/ui/alerts'],
  ['Queues', '/admin/ui/queues/'],
];

/**
 * Wraps a table so that it scrolls sideways inside the page on a narrow screen; the wrapper is a
 * named, focusable region so that it scrolls with the keyboard too.
 */
export function scrollTable(table: string, label = 'Table'): string {
  return `<div class="scroll" role="region" aria-label="${esc(label)}" tabindex="0">${table}</div>`;
}

/** A page of the operators' view; `csrf` null for the signed-out pages (no navigation). */
export function page(title: string, body: string, csrf: string | null): string {
  const nav =
    csrf === null
      ? ''
      : `<nav aria-label="Main"><ul>${NAV.map(
          ([label, href]) =>
            `<li><a href="${href}"${label === title ? ' aria-current="page"' : ''}>${label}</a></li>`,
        ).join('')}</ul></nav>` +
        `<form method="post" action="/admin/ui/logout">${csrfField(csrf)}<button type="submit">Sign out</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · connector</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><a class="skip" href="#main">Skip to content</a><header><strong>catalog-connector</strong>${nav}</header><main id="main" tabindex="-1"><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

/** The sign-in form: the admin token goes in the POST body, never the URL. */
export function signInPage(problem: string | null): string {
  return page(
    'Sign in',
    `${problem ? `<p class="error" role="alert">${esc(problem)}</p>` : ''}
<form method="post" action="/admin/ui/login">
<label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button></form>
<p class="muted">The token is <code>CONNECTOR_ADMIN_TOKEN</code>. Signing in sets a session cookie for this view only.</p>`,
    null,
  );
}
