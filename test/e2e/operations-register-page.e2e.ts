import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { linkIn, Mailbox } from '../support/mailbox.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * The registration page at `GET /api/v1/iam/register`, in Debian's Chromium with the ALTCHA
 * challenge on: the widget, served by Qantara under a strict Content-Security-Policy, fetches
 * and solves the proof of work; the form registers the account and the verification mail arrives.
 */

let stack: TestStack;
let mailbox: Mailbox;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const outside: string[] = [];

beforeAll(async () => {
  mailbox = await Mailbox.start();
  stack = await startStack({ CHALLENGE: 'altcha', SMTP_URL: mailbox.url });
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(stack.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) {
      outside.push(request.url());
    }
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await mailbox?.stop();
});

describe('the registration page', () => {
  it('is HTML with a strict policy: scripts, styles and workers from this origin only, no inline code', async () => {
    const response = await stack.fetch('/api/v1/iam/register');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("worker-src 'self'");
    expect(policy).not.toContain('unsafe');
    const html = await response.text();
    expect(html).toContain('<altcha-widget name="challenge_token" challenge="/api/v1/iam/challenge">');
    expect(html).not.toMatch(/<script>|<style>|https?:\/\//);
    for (const asset of ['altcha.js', 'altcha.css', 'sha.js', 'register.js', 'register.css']) {
      const served = await stack.fetch(`/api/v1/iam/register/assets/${asset}`);
      expect(served.status, asset).toBe(200);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await stack.fetch('/api/v1/iam/register/assets/package.json')).status).toBe(404);
  });

  it('lets the widget solve the challenge, registers the account and mails the verification link', async () => {
    const email = `browser-${randomUUID().slice(0, 8)}@example.org`;
    await page.goto(`${stack.url}/api/v1/iam/register`);
    await page.getByLabel('Name').fill('Browser Visitor');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('browser-password-1');

    // Without a solved challenge the form asks for one and sends nothing.
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('#outcome').textContent()).toMatch(/not a robot/i);

    const challenge = page.waitForResponse((response) => response.url().endsWith('/api/v1/iam/challenge'));
    // As a visitor does: a click on the widget's label starts the work.
    await page.locator('altcha-widget label', { hasText: 'not a robot' }).click();
    expect((await challenge).status()).toBe(200);
    await page.locator('altcha-widget [data-state="verified"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('input[name="challenge_token"]').inputValue()).not.toBe('');

    const registered = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/iam/register') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Create account' }).click();
    expect((await registered).status()).toBe(201);
    await expect.poll(() => page.locator('#outcome').textContent()).toBe(`Done. We mailed a confirmation link to ${email}.`);

    const mail = await mailbox.next(email, /verify/i);
    const link = linkIn(mail, '/api/v1/iam/verify-email/');
    expect((await stack.fetch(new URL(link).pathname)).status).toBe(200);
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
