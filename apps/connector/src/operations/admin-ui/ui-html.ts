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

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;align-items:center}
header a{color:#cfe0ff;text-decoration:none} header form{margin-left:auto}
main{padding:1rem 1.2rem;max-width:1200px}
table{border-collapse:collapse;width:100%;background:#fff} th,td{border-bottom:1px solid #e3e6ea;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f5} .muted{color:#6b7380} .error{color:#a4161a} .ok{color:#1b7a3a}
button{cursor:pointer} code{font-size:12px}
`;

/** A hidden field carrying the session's CSRF token; every form of a signed-in page has one. */
export function csrfField(csrf: string): string {
  return `<input type="hidden" name="_csrf" value="${esc(csrf)}">`;
}

/** A POST form made of one button. */
export function actionButton(action: string, label: string, csrf: string, name = label): string {
  return `<form method="post" action="${esc(action)}" style="display:inline">${csrfField(csrf)}<button type="submit" name="action" value="${esc(name)}">${esc(label)}</button></form>`;
}

/** A page of the operators' view; `csrf` null for the signed-out pages (no navigation). */
export function page(title: string, body: string, csrf: string | null): string {
  const nav =
    csrf === null
      ? ''
      : `<a href="/admin/ui">Failures</a><a href="/admin/ui/queues/">Queues</a><a href="/admin/ui/products">Products</a>` +
        `<form method="post" action="/admin/ui/logout">${csrfField(csrf)}<button type="submit">Sign out</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · connector</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><header><strong>catalog-connector</strong>${nav}</header><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
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
