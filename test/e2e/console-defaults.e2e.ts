import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { DEMO_WELCOME_CREDITS } from '../../runtime/config.js';
import { DEMO_PASSWORD, demoEmail, OPERATIONS_ENV } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Issue 22, item 5: the console at `/app` works out of the box — demo data on, no LLM, no
 * Stripe, no credits configured. A demo user signs in in Debian's Chromium, writes a case in
 * Arabic labelled lines, gets the offline assistant's reply and a research report; a case that
 * still needs details asks before research and names what is missing; a 402 is worded for
 * people and points at the console's own Credits page. Screenshots go to
 * `artifacts/console-defaults/`.
 */

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'artifacts', 'console-defaults');
const ARABIC_CASE = [
  'الفكرة: تطبيق يربط أصحاب الكلاب بجليسات موثوقات في الحي',
  'المستخدمون: أصحاب الكلاب العاملون في المدن',
  'المشكلة: صعوبة إيجاد جليسة موثوقة في وقت قصير',
  'الحل: حجز جليسة موثقة بالتقييمات خلال دقائق',
  'الربح: عمولة على كل حجز',
].join('\n');
const THIN_CASE = 'An app that matches dog owners with trusted sitters in their neighbourhood';

let stack: TestStack;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
const balance = async () => Number(await page.locator('#credit-balance').textContent());

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // The embedded default's demo switches, said out loud: the stack runs on a test database.
  stack = await startStack({ ...OPERATIONS_ENV, DEMO_OPERATIONS: 'true', DEMO_RESEARCH: 'true' });
  expect(stack.config.llmBaseUrl).toBeUndefined();
  expect(stack.config.stripeSecretKey).toBeUndefined();
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the console on default settings', () => {
  it('hides the sections while signed out, and signs a demo user in', async () => {
    await page.goto(`${stack.url}/app/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(false);
    await shot('01-signed-out');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(demoEmail('Engineer'));
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(true);
  });

  it('starts with the demo’s credits, so the first case costs nothing to set up', async () => {
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.locator('#credit-balance').waitFor();
    expect(await balance()).toBe(DEMO_WELCOME_CREDITS);
    await page.getByRole('link', { name: 'Cases' }).click();
  });

  it('gets the offline assistant’s reply to a case written in Arabic labelled lines, ready for research', async () => {
    await page.getByLabel('Describe a new idea').fill(ARABIC_CASE);
    await page.getByRole('button', { name: 'Start a case' }).click();
    const reply = page.locator('.message.assistant[data-status="complete"] p');
    await reply.waitFor();
    const text = (await reply.textContent())!;
    expect(text).toContain('[Offline assistant');
    expect(text).toContain('target users, the problem, the solution, monetization');
    await page.locator('.readiness[data-status="ready"]').waitFor();
    await shot('02-arabic-case-ready');
  });

  it('starts research and shows the report', async () => {
    await page.getByRole('button', { name: 'Start research' }).click();
    const report = page.locator('article.report p');
    await report.waitFor({ timeout: 30_000 });
    expect(await report.textContent()).toContain('Offline report');
    expect(await page.locator('#notice').textContent()).toContain('Research started');
    await shot('03-report');
  });

  it('asks before researching a case that still needs details, naming what is missing', async () => {
    await page.getByLabel('Describe a new idea').fill(THIN_CASE);
    await page.getByRole('button', { name: 'Start a case' }).click();
    await page.locator('.readiness[data-status="needs_details"]').waitFor();
    await page.locator('.message.assistant[data-status="complete"]').waitFor();
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Start research' }).click();
    await page.locator('#notice', { hasText: 'Research not started' }).waitFor();
    expect(question).toContain('still needs details');
    expect(question).toMatch(/Missing: .*Problem/);
    expect(question).toContain('30 credits');
    expect(await page.locator('.runs').count()).toBe(0);
    await shot('04-asked-before-research');
    // Without an LLM the offline rules answered both turns and wrote the report: live work
    // the offline rules do is free, so the balance is untouched.
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.locator('#credit-balance').waitFor();
    expect(await balance()).toBe(DEMO_WELCOME_CREDITS);
  });

  it('words a refusal for want of credits for people, pointing at the console’s own Credits page', async () => {
    await page.getByRole('link', { name: 'Cases' }).click();
    await page.locator('.case-list a').first().click();
    await page.locator('#start-research').waitFor();
    // The API's own 402 answer, as `research-credits.e2e.ts` proves it is sent.
    await page.route('**/research-runs', (route) =>
      route.fulfill({
        status: 402,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'Not enough credits: this needs 30, the workspace holds 4. Top up with POST /v1/billing/top-ups.',
          creditBalance: 4,
          requiredCredits: 30,
        }),
      }),
    );
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Start research' }).click();
    const notice = page.locator('#notice.error');
    await notice.waitFor();
    const said = (await notice.textContent())!;
    expect(said).toContain('This needs 30 credits and your workspace has 4.');
    expect(said).not.toContain('/v1/billing');
    expect(await notice.getByRole('link', { name: 'Add credits on the Credits page' }).getAttribute('href')).toBe('#/credits');
    await page.unroute('**/research-runs');
    await shot('05-not-enough-credits');
    expect(problems.filter((problem) => !/status of 402/.test(problem))).toEqual([]);
  });
});
