import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { DEMO_PASSWORD, demoEmail, OPERATIONS_ENV } from '../support/operations.js';
import { call, startResearchStack } from '../support/research.js';
import { LLM_REPORT, startFakeLlm, startFakeStripe, type FakeLlm, type FakeStripe } from '../support/research-upstreams.js';
import type { TestStack } from '../support/stack.js';

/**
 * The console at `/app`, driven in Debian's Chromium (`playwright-core`, no browser download)
 * the way a person uses it: sign in at our provider (code + PKCE), start a case and see the
 * assistant's reply arrive live (the `threadUpdated` subscription; the LLM is a loopback
 * fake held until the page shows the pending reply), start research and read the summary,
 * start a top-up, create a key (its secret shown once), rotate and revoke it, refresh a
 * refused access token, come back after a reload, sign out — with no token ever in web storage. Screenshots
 * of each step are kept under `artifacts/console/`.
 */

// Functions given to `evaluate` run in Chromium; these are the DOM names they use.
declare function getComputedStyle(element: unknown): { direction: string };
declare const window: { consoleMarker?: string };
interface WebStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
}
declare const sessionStorage: WebStorage;
declare const localStorage: WebStorage;

/** Every entry of both web storages, as the page's own scripts could read them. */
const storedByPage = () =>
  page.evaluate(() => {
    const entries: string[] = [];
    for (const storage of [localStorage, sessionStorage]) {
      for (let index = 0; index < storage.length; index += 1) {
        const key = storage.key(index)!;
        entries.push(`${key}=${storage.getItem(key)}`);
      }
    }
    return entries;
  });

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'artifacts', 'console');
const WELCOME = 100;
const ARABIC_IDEA = 'تطبيق يربط أصحاب الكلاب بجليسات موثوقات في الحي';

let stack: TestStack;
let llm: FakeLlm;
let stripe: FakeStripe;
let browser: Browser;
let page: Page;
const problems: string[] = [];
/** Every token the token endpoint gave the page, and the grant types the page asked for. */
const issued: Array<{ access_token?: string; refresh_token?: string; id_token?: string }> = [];
const grants: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  llm = await startFakeLlm();
  stripe = await startFakeStripe();
  stack = await startResearchStack({
    ...OPERATIONS_ENV,
    LLM_BASE_URL: llm.url,
    RESEARCH_WELCOME_CREDITS: String(WELCOME),
    STRIPE_SECRET_KEY: 'sk_test_console',
    STRIPE_API_URL: stripe.url,
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The payment page is Stripe's: stand in for it rather than leave the machine.
  await context.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Checkout</title><h1>Stripe Checkout (test double)</h1>' }),
  );
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/oidc/token')
      grants.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '');
  });
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/oidc/token' && response.ok())
      void response.json().then((body: (typeof issued)[number]) => issued.push(body));
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await Promise.all([llm?.close(), stripe?.close()]);
});

describe('the console', () => {
  it('serves itself from this deployment only, under a strict content security policy', async () => {
    const response = await stack.fetch('/app/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    const config = await (await stack.fetch('/app/config.json')).json();
    expect(config).toEqual({
      issuer: `${stack.url}/oidc`,
      clientId: 'qantara-console',
      scope: 'openid email profile workspace offline_access',
      api: '/api/chat',
      redirectPath: '/app/',
    });
    expect((await stack.fetch('/app/vendor/graphql-ws/client.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await stack.fetch('/app/../package.json')).status).toBe(404);
    expect((await stack.fetch('/app/vendor/graphql-ws/server.js')).status).toBe(404);
  });

  it('signs a person in at the identity provider with code + PKCE', async () => {
    await page.goto(`${stack.url}/app/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(false);
    await shot('01-signed-out');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('E-mail address').fill(demoEmail('Engineer'));
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await shot('02-provider-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByRole('navigation', { name: 'Sections' }).isVisible()).resolves.toBe(true);
  });

  it('starts a case and shows the assistant’s reply as it arrives, without reloading', async () => {
    const release = llm.hold();
    try {
      await page.getByLabel('Describe a new idea').fill(ARABIC_IDEA);
      await page.getByRole('button', { name: 'Start a case' }).click();
      const pending = page.locator('.message.assistant[data-status="pending"]');
      await pending.waitFor();
      await page.evaluate(() => (window.consoleMarker = 'same page'));
      const userText = page.locator('.message.user p').first();
      expect(await userText.textContent()).toBe(ARABIC_IDEA);
      expect(await userText.getAttribute('dir')).toBe('auto');
      expect(await userText.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
      await shot('03-reply-pending');
    } finally {
      release();
    }
    const reply = page.locator('.message.assistant[data-status="complete"]');
    await reply.waitFor();
    expect(await reply.locator('p').textContent()).toContain('Everything research needs is here');
    expect(await page.evaluate(() => window.consoleMarker)).toBe('same page');
    await page.locator('.readiness[data-status="ready"]').waitFor();
    await shot('04-reply-arrived');
  });

  it('starts research with the explicit button and shows the report’s summary when it is done', async () => {
    await page.getByRole('button', { name: 'Start research' }).click();
    const report = page.locator('article.report p');
    await report.waitFor();
    expect(await report.textContent()).toContain(LLM_REPORT.verdict);
    expect(await page.locator('#notice').textContent()).toContain('Research started');
    await shot('05-research-summary');
  });

  it('shows the credits and sends a top-up to the hosted checkout', async () => {
    await page.getByRole('link', { name: 'Credits' }).click();
    // A turn (1) and a run (30) were paid from the welcome credits.
    await page.locator('#credit-balance', { hasText: String(WELCOME - 31) }).waitFor();
    await shot('06-credits');
    const sessions = stripe.sessions.length;
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    expect(stripe.sessions).toHaveLength(sessions + 1);
    expect(stripe.sessions.at(-1)!.form.get('success_url')).toBe(`${stack.url}/app/#/credits`);
    await shot('07-checkout');
    await page.goto(`${stack.url}/app/#/credits`);
    await page.locator('#credit-balance').waitFor();
  });

  it('creates a key with explicit scopes, shows its secret once, and revokes it', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci reader');
    await page.getByLabel('threads_read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-secret').textContent())!;
    expect(secret).toMatch(/^rk_live_[A-Za-z0-9_-]{43}$/);
    await shot('08-key-created');
    const cases = await call(stack, secret, 'GET', '/v1/chat/threads');
    expect(cases.status).toBe(200);
    expect(cases.body.items).toHaveLength(1);

    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('#new-secret').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Rotate ci reader' }).click();
    const rotated = (await page.locator('#new-secret').textContent())!;
    expect(rotated).toMatch(/^rk_live_/);
    expect(rotated).not.toBe(secret);
    expect((await call(stack, secret, 'GET', '/v1/chat/threads')).status).toBe(401);
    expect((await call(stack, rotated, 'GET', '/v1/chat/threads')).status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke ci reader' }).click();
    await page.locator('tr[data-status="revoked"]', { hasText: 'ci reader' }).waitFor();
    expect((await call(stack, rotated, 'GET', '/v1/chat/threads')).body.code).toBe('api_key_revoked');
    await shot('09-key-revoked');
  });

  it('keeps no token where the page’s scripts could read it: neither localStorage nor sessionStorage', async () => {
    const tokens = issued.flatMap((body) => [body.access_token, body.refresh_token, body.id_token]).filter(Boolean) as string[];
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    const stored = (await storedByPage()).join('\n');
    for (const token of tokens) expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(stored).not.toMatch(/access|refresh|token/i);
  });

  it('refreshes a refused access token with the rotating refresh token, without asking to sign in again', async () => {
    const logged = problems.length;
    const refreshes = grants.filter((grant) => grant === 'refresh_token').length;
    const answers = issued.length;
    const before = issued.at(-1)!;
    let refused = false;
    await page.route('**/api/chat/billing', async (route) => {
      if (refused) return route.continue();
      refused = true;
      await route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'Invalid access token' }) });
    });
    await page.getByRole('link', { name: 'Cases' }).click();
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.locator('#credit-balance').waitFor();
    await page.unroute('**/api/chat/billing');
    expect(refused).toBe(true);
    expect(grants.filter((grant) => grant === 'refresh_token')).toHaveLength(refreshes + 1);
    await expect.poll(() => issued.length).toBe(answers + 1);
    const after = issued.at(-1)!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeDefined();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The browser logs the refused call itself; nothing else may go wrong.
    expect(problems.splice(logged).filter((problem) => !/status of 401/.test(problem))).toEqual([]);
  });

  it('after a reload signs in again through the provider’s session, asking nothing, and still stores no token', async () => {
    const codes = grants.filter((grant) => grant === 'authorization_code').length;
    await page.reload();
    await page.locator('#credit-balance').waitFor();
    expect(new URL(page.url()).hash).toBe('#/credits');
    expect(grants.filter((grant) => grant === 'authorization_code')).toHaveLength(codes + 1);
    const stored = (await storedByPage()).join('\n');
    for (const body of issued) expect(stored).not.toContain(body.access_token);
  });

  it('signs out at the provider and comes back signed out; the last access token is refused at once', async () => {
    const last = issued.at(-1)!.access_token!;
    expect((await call(stack, last, 'GET', '/api/chat/workspace')).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(false);
    expect((await call(stack, last, 'GET', '/api/chat/workspace')).status).toBe(401);
    await shot('10-signed-out-again');
    expect(problems).toEqual([]);
  });
});
