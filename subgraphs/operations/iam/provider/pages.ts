import type { SecondFactorMethodName } from '../../../../contracts/operations/iam-types.js';

/**
 * The provider's pages: minimal server-rendered HTML, no script, every value escaped.
 * Served with `Content-Security-Policy: default-src 'none'` (inline styles only).
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double- or single-quoted attributes. */
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (char) => ENTITIES[char]!);

/** Headers of every page: never cached, never framed, no referrer to the client. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:380px;margin:48px auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.35em;margin:0 0 4px}p.for{color:#5b6475;margin:0 0 16px}label{display:block;margin:12px 0 4px;font-weight:600}
input[type=email],input[type=password],input[type=text],select{width:100%;box-sizing:border-box;padding:8px;font-size:1em;border:1px solid #b8bfcc;border-radius:4px}
button{margin-top:16px;padding:9px 14px;font-size:1em;border:0;border-radius:4px;background:#1f5fbf;color:#fff;cursor:pointer;width:100%}
button.link{background:none;color:#1f5fbf;width:auto;padding:0;margin-top:12px}.row{display:flex;justify-content:space-between}
.error{background:#fdecea;color:#8a1c12;padding:8px 10px;border-radius:4px}.notice{background:#e8f2fd;color:#123f7a;padding:8px 10px;border-radius:4px}
pre{white-space:pre-wrap;word-break:break-word}`;

export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Qantara</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const messages = (error?: string, notice?: string) =>
  `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}`;

const heading = (title: string, client: string) => `<h1>${escapeHtml(title)}</h1><p class="for">to continue to ${escapeHtml(client)}</p>`;

const abortForm = (action: string) =>
  `<form method="post" action="${escapeHtml(action)}"><button class="link" type="submit">Cancel and go back</button></form>`;

export interface LoginPage {
  readonly client: string;
  readonly action: string;
  readonly abort: string;
  readonly email?: string;
  readonly error?: string;
  readonly notice?: string;
}

export function loginPage(view: LoginPage): string {
  return page(
    'Sign in',
    `${heading('Sign in with Qantara', view.client)}${messages(view.error, view.notice)}
<form method="post" action="${escapeHtml(view.action)}" autocomplete="on">
<label for="email">E-mail address</label><input id="email" name="email" type="email" maxlength="254" required autofocus value="${escapeHtml(view.email)}">
<label for="password">Password</label><input id="password" name="password" type="password" minlength="8" maxlength="64" required autocomplete="current-password">
<button type="submit">Sign in</button></form>${abortForm(view.abort)}`,
  );
}

const METHOD_LABELS: Record<SecondFactorMethodName, string> = {
  email: 'Code sent by e-mail',
  totp: 'Authenticator app',
  backup_code: 'Backup code',
};

export interface SecondFactorPage {
  readonly client: string;
  readonly action: string;
  readonly resend: string;
  readonly abort: string;
  readonly methods: readonly SecondFactorMethodName[];
  readonly method?: SecondFactorMethodName;
  readonly error?: string;
  readonly notice?: string;
}

export function secondFactorPage(view: SecondFactorPage): string {
  const chosen = view.method ?? view.methods[0];
  const options = view.methods
    .map(
      (method) =>
        `<option value="${escapeHtml(method)}"${method === chosen ? ' selected' : ''}>${escapeHtml(METHOD_LABELS[method])}</option>`,
    )
    .join('');
  const resend = view.methods.includes('email')
    ? `<form method="post" action="${escapeHtml(view.resend)}"><button class="link" type="submit">Send a new code by e-mail</button></form>`
    : '';
  return page(
    'Second factor',
    `${heading('Confirm it is you', view.client)}${messages(view.error, view.notice)}
<form method="post" action="${escapeHtml(view.action)}" autocomplete="off">
<label for="method">Method</label><select id="method" name="method">${options}</select>
<label for="code">Code</label><input id="code" name="code" type="text" inputmode="text" minlength="4" maxlength="32" required autofocus autocomplete="one-time-code">
<button type="submit">Continue</button></form>${resend}${abortForm(view.abort)}`,
  );
}

export function messagePage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

/** The engine's error page (`renderError`): what went wrong, every value escaped. */
export function errorPage(out: Record<string, unknown>): string {
  const lines = Object.entries(out)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `<pre><strong>${escapeHtml(key)}</strong>: ${escapeHtml(value)}</pre>`)
    .join('');
  return page('Sign-in error', `<h1>Something went wrong</h1><p>Go back to the application and try again.</p>${lines}`);
}

/** The sign-out confirmation (`logoutSource`): `form` is the engine's hidden form (with its anti-forgery token). */
export function logoutPage(form: string): string {
  return page(
    'Sign out',
    `<h1>Sign out of Qantara?</h1>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>
<button class="link" type="submit" form="op.logoutForm">No, stay signed in</button>`,
  );
}

export function loggedOutPage(client: string | undefined): string {
  return messagePage('Signed out', client ? `You are signed out of Qantara and ${client}.` : 'You are signed out of Qantara.');
}
