import { escapeHtml, selfServedPageHeaders } from './html.js';

/**
 * The registration page (`GET /api/v1/iam/register`): a form for `POST /api/v1/iam/register`
 * with the ALTCHA widget (the `altcha` package), which fetches its proof-of-work challenge from
 * `GET /api/v1/iam/challenge` and solves it in a Web Worker. Every file it loads is served by
 * Qantara below `REGISTER_ASSETS`, from the installed package; no CDN.
 */

export const REGISTER_ASSETS = '/api/v1/iam/register/assets';

/**
 * Scripts, styles and workers from this origin only, no inline script or style; the page talks
 * to this origin alone (the challenge and the registration), and posts no form anywhere.
 */
export const REGISTER_PAGE_HEADERS = selfServedPageHeaders([
  "script-src 'self'",
  "style-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
]);

export function renderRegisterPage(options: { challenge: string; register: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Create a Qantara account</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${REGISTER_ASSETS}/altcha.css">
<link rel="stylesheet" href="${REGISTER_ASSETS}/register.css">
</head>
<body>
<header class="qantara"><nav><a href="/"><strong>Qantara · قنطرة</strong></a><a href="/api/v1/docs">Operations API</a></nav></header>
<main>
<h1>Create an account</h1>
<p>We mail you a link to confirm your address (valid 24 hours); you can sign in once it is confirmed.</p>
<form id="register" data-action="${escapeHtml(options.register)}" data-worker="${REGISTER_ASSETS}/sha.js" novalidate>
<label for="name">Name</label>
<input id="name" name="name" autocomplete="name" required maxlength="200">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="64">
<p class="hint">8 to 64 characters.</p>
<altcha-widget name="challenge_token" challenge="${escapeHtml(options.challenge)}"></altcha-widget>
<button type="submit">Create account</button>
<p id="outcome" role="status" aria-live="polite"></p>
</form>
</main>
<script type="module" src="${REGISTER_ASSETS}/register.js"></script>
</body>
</html>
`;
}
