import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, visit as openPage } from '../support/browser.js';
import { LIBRARY_CONTRACTS } from '../../contracts/library/index.js';
import { LIBRARY_MCP } from '../../contracts/library/mcp.js';
import { startStack, type TestStack } from '../support/stack.js';

// Functions given to `page.evaluate` run in Chromium; these are the DOM names they use
// (declared here rather than adding the DOM library to the whole Node program).
interface PageElement {
  textContent: string | null;
}
declare const document: {
  documentElement: { dir: string; lang: string; scrollWidth: number; clientWidth: number };
  body: { innerText: string };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare function getComputedStyle(element: PageElement): { direction: string };

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const openApi = async () => (await (await stack.fetch('/openapi.json')).json()) as Document & Record<string, unknown>;

describe('/plans', () => {
  it('lists every plan and its limits without a key', async () => {
    const response = await stack.fetch('/plans');
    expect(response.status).toBe(200);
    const { plans } = (await response.json()) as { plans: Array<Record<string, unknown>> };
    expect(plans.map((plan) => [plan.name, plan.rpm, plan.rpd, plan.max_limit, plan.self_service])).toEqual([
      ['free', 10, 300, 20, true],
      ['pro', 60, 10000, 20, false],
      ['unlimited', 100000, 100000000, 20, false],
    ]);
  });
});

describe('OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document (@apidevtools/swagger-parser)', async () => {
    const document = await openApi();
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as unknown as OpenAPI.Document)).resolves.toBeTruthy();
  });

  it('describes every library REST route and the MCP endpoint, and nothing the facade does not serve', async () => {
    const document = await openApi();
    const routed = LIBRARY_CONTRACTS.flatMap((contract) => contract.rest)
      .map((binding) => `${binding.method} ${binding.path.replace(/:(\w+)/g, '{$1}')}`)
      .concat(['POST', 'GET', 'DELETE'].map((method) => `${method} ${LIBRARY_MCP.path}`))
      .sort();
    const described = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(described).toEqual(routed);
  });

  it('publishes the seed’s error statuses for keys, usage and admin, and beyond them only README’s 422 of registration and 401 of admin', async () => {
    const { paths } = await openApi();
    // The seed's Endpoints table, Errors column.
    const seed: Record<string, string[]> = {
      'get /v1/me': ['401', '429', '502'],
      'get /v1/usage': ['401', '429', '502'],
      'post /v1/register': ['429'],
      'post /admin/keys': ['422'],
      'post /admin/keys/{key_id}/plan': ['422'],
      'post /admin/keys/{key_id}/rpd': ['422'],
      'post /admin/keys/{key_id}/status': ['422'],
      'get /admin/stats': ['422'],
    };
    // README: a bad e-mail or organisation at registration is a 422; a missing or wrong x-admin-token is a 401.
    const ours: Record<string, string[]> = { 'post /v1/register': ['422'] };
    for (const operation of Object.keys(seed)) if (operation.includes('/admin/')) ours[operation] = ['401'];
    for (const [operation, statuses] of Object.entries(seed)) {
      const [method, path] = operation.split(' ') as [string, string];
      const published = Object.keys(paths[path]![method]!.responses).filter((status) => !status.startsWith('2'));
      expect(published.sort(), operation).toEqual([...statuses, ...(ours[operation] ?? [])].sort());
    }
  });
});

describe('HTML pages in headless Chromium', () => {
  const visit = (path: string) => openPage(browser, `${stack.url}${path}`);

  it('/ is a self-contained bilingual landing page, Arabic right to left', async () => {
    const { page, response, requests, problems } = await visit('/');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(requests).toEqual([`${stack.url}/`]);
    expect(problems).toEqual([]);
    const facts = await page.evaluate(() => ({
      dir: document.documentElement.dir,
      lang: document.documentElement.lang,
      arabic: getComputedStyle(document.querySelector('section[lang="ar"]')!).direction,
      english: getComputedStyle(document.querySelector('section[lang="en"]')!).direction,
      code: getComputedStyle(document.querySelector('pre')!).direction,
      heading: document.querySelector('section[lang="ar"] h1')!.textContent,
      plans: [...document.querySelectorAll('section[lang="en"] tbody tr td:first-child')].map((cell) => cell.textContent),
      overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    }));
    expect(facts).toEqual({
      dir: 'rtl',
      lang: 'ar',
      arabic: 'rtl',
      english: 'ltr',
      code: 'ltr',
      heading: expect.stringContaining('قنطرة'),
      plans: ['free', 'pro', 'unlimited'],
      overflow: false,
    });
    mkdirSync(join('.data', 'screenshots'), { recursive: true });
    await page.screenshot({ path: join('.data', 'screenshots', 'landing.png'), fullPage: true });
    await page.close();
  });

  it('/docs renders the OpenAPI description with Swagger UI, from this origin alone, listing every operation', async () => {
    const { page, response, requests, problems } = await visit('/docs');
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.swagger-ui .opblock', { timeout: 45_000 });
    expect(
      requests.every((url) => url.startsWith(`${stack.url}/`)),
      requests.join('\n'),
    ).toBe(true);
    expect(problems).toEqual([]);
    const { paths } = await openApi();
    const expected = Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    // Swagger UI renders operations as they near the viewport: scroll until all are there.
    for (let step = 0; step < 400 && (await page.locator('.swagger-ui .opblock').count()) < expected.length; step++) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(50);
    }
    const methods = await page.locator('.swagger-ui .opblock .opblock-summary-method').allInnerTexts();
    const routes = await page
      .locator('.swagger-ui .opblock .opblock-summary-path')
      .evaluateAll((spans) =>
        spans.map((span) => (span as unknown as PageElement & { getAttribute(name: string): string }).getAttribute('data-path')),
      );
    const operations = methods.map((method, index) => `${method.trim()} ${routes[index]}`);
    expect([...operations].sort()).toEqual([...expected].sort());
    const text = await page.evaluate(() => document.body.innerText);
    for (const fact of ['X-RateLimit-Remaining', 'X-Quota-Reset', 'RateLimit-Policy', 'missing_api_key', 'quota_exceeded', 'Retry-After'])
      expect(text).toContain(fact);
    await page.screenshot({ path: join('.data', 'screenshots', 'docs.png'), fullPage: false });
    await page.close();
  });
});
