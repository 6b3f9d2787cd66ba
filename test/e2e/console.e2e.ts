import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoEmail, OPERATIONS_ENV } from '../support/operations.js';
import { call, startResearchStack } from '../support/research.js';
import { LLM_REPORT, startFakeLlm, startFakeStripe, type FakeLlm, type FakeStripe } from '../support/research-upstreams.js';
import type { TestStack } from '../support/stack.js';

/**
 * The console at `/app`, driven in Debian's Chromium (`playwright-core`, no browser download)
 * the way a person uses it: sign in at our provider (code + PKCE), start a case and see the
 * assistant's reply arrive live (the `threadUpdated` subscription; the LLM is a loopback
 * fake held until the page shows the pending reply), start research and read the summary,
 * start a top-up, create a key (its secret shown once), rotate and revoke it, refresh an
 * expired access token, sign out. Screenshots
 * of each step are kept under `artifacts/console/`.
 */

// Functions given to `evaluate` run in Chromium; these are the DOM names they use.
declare function getComputedStyle(element: unknown): { direction: string };
declare const window: { consoleMarker?: string };
declare const sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'artifacts', 'console');
const WELCOME = 100;
const ARABIC_IDEA = 'تطبيق يربط أصحاب الكلاب بجليسات موثوقات في الحي';

let stack: TestStack;
let llm: FakeLlm;
let stripe: FakeStripe;
let browser: Browser;
let page: Page;
const problems: string[] = [];

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
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
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

  it('refreshes an expired access token with the rotating refresh token, without asking to sign in again', async () => {
    const before = await page.evaluate(() => JSON.parse(sessionStorage.getItem('qantara.console.session')!) as StoredTokens);
    await page.evaluate(() => {
      const tokens = JSON.parse(sessionStorage.getItem('qantara.console.session')!) as StoredTokens;
      sessionStorage.setItem('qantara.console.session', JSON.stringify({ ...tokens, expiresAt: 0 }));
    });
    // A new page load: the console reads the stored (expired) tokens.
    await page.goto(`${stack.url}/app/#/credits`);
    await page.reload();
    await page.locator('#credit-balance').waitFor();
    const after = await page.evaluate(() => JSON.parse(sessionStorage.getItem('qantara.console.session')!) as StoredTokens);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now());
  });

  it('signs out at the provider and comes back signed out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot('10-signed-out-again');
    expect(problems).toEqual([]);
  });
});
