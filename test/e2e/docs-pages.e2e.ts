import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, visit as openPage } from '../support/browser.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const visit = (path: string) => openPage(browser, `${stack.url}${path}`);

/**
 * An operation of the rendered list, opened by a click as a reader does: its text and its request
 * body's field names. Swagger UI renders operations as they near the viewport, so the page is
 * scrolled down until the operation is there.
 */
async function openedOperation(page: Page, operationId: string) {
  const block = `[id$="-${operationId}"].opblock`;
  await page.waitForSelector('.swagger-ui .opblock', { timeout: 100_000 });
  for (let step = 0; step < 400 && (await page.locator(block).count()) === 0; step++) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(50);
  }
  await page.locator(block).scrollIntoViewIfNeeded();
  if (!(await page.locator(`${block}.is-open`).count())) await page.locator(`${block} .opblock-summary-control`).click();
  const body = `${block}.is-open .opblock-section-request-body`;
  await page.waitForSelector(`${body} .json-schema-2020-12__title`, { timeout: 100_000 });
  const text = await page.locator(`${block}.is-open`).innerText();
  const fields = await page.locator(`${body} .json-schema-2020-12-property .json-schema-2020-12__title`).allInnerTexts();
  return { text, fields: fields.map((field) => field.trim()) };
}

const PAGES = [
  {
    path: '/docs',
    openapi: '/openapi.json',
    title: 'Qantara library API',
    operation: { id: 'libraryRegister', method: 'POST', path: '/v1/register', fields: ['email', 'org'], access: 'public' },
  },
  {
    path: '/research/docs',
    openapi: '/.well-known/openapi.json',
    title: 'Qantara research API',
    operation: {
      id: 'researchCreateApiKey',
      method: 'POST',
      path: '/v1/api-keys',
      fields: ['name', 'scopes'],
      access: 'research key with api_keys_admin',
    },
  },
  {
    path: '/api/v1/docs',
    openapi: '/api/v1/openapi.json',
    title: 'Qantara operations API',
    operation: {
      id: 'coreCreateOrganization',
      method: 'POST',
      path: '/api/v1/core/organizations',
      fields: ['slug', 'name'],
      access: 'super-admin',
    },
  },
] as const;

describe.each(PAGES)('$path', ({ path, openapi, title, operation }) => {
  it(`renders ${openapi} with Swagger UI from this origin alone, under a policy that refuses anything else`, async () => {
    const { page, response, requests, problems } = await visit(path);
    expect(response?.status()).toBe(200);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/unsafe-eval|https?:|\*/);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 100_000 });
    expect(await page.locator('.swagger-ui .info .title').innerText()).toContain(title);
    expect(
      requests.every((url) => url.startsWith(`${stack.url}/`)),
      requests.join('\n'),
    ).toBe(true);
    expect(requests).toContain(`${stack.url}${openapi}`);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it(`shows the request body fields, the responses and the roles of ${operation.method} ${operation.path}`, async () => {
    const { page, problems } = await visit(path);
    const { text, fields } = await openedOperation(page, operation.id);
    expect(text).toContain(operation.path);
    expect(text).toContain('Request body');
    expect(fields).toEqual(expect.arrayContaining([...operation.fields]));
    expect(text).toContain('Responses');
    expect(text).toContain(`Access: ${operation.access}.`);
    expect(text).toContain('x-access');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('documentation assets', () => {
  it('serves Swagger UI’s bundle and stylesheet from the installed package, and nothing else below the prefix', async () => {
    const bundle = await stack.fetch('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('text/javascript');
    expect(await bundle.text()).toContain('SwaggerUIBundle');
    const css = await stack.fetch('/docs/assets/swagger-ui.css');
    expect(css.headers.get('content-type')).toContain('text/css');
    for (const missing of ['/docs/assets/package.json', '/docs/assets/../package.json', '/docs/assets/index.html'])
      expect((await stack.fetch(missing)).status, missing).toBe(404);
  });
});

describe('/', () => {
  it('links every entry point: the three docs pages and their documents, /graphql, /app/, both MCP endpoints and /metrics', async () => {
    const html = await (await stack.fetch('/')).text();
    const links = [...html.matchAll(/<table id="entry-points">[\s\S]*?<\/table>/g)]
      .flatMap(([table]) => [...table.matchAll(/href="([^"]+)"/g)])
      .map((match) => match[1]);
    expect(links.sort()).toEqual(
      [
        '/docs',
        '/openapi.json',
        '/research/docs',
        '/.well-known/openapi.json',
        '/api/v1/docs',
        '/api/v1/openapi.json',
        '/graphql',
        '/app/',
        '/v1/mcp',
        '/mcp',
        '/metrics',
      ].sort(),
    );
    for (const path of ['/docs', '/research/docs', '/api/v1/docs', '/graphql', '/app/', '/metrics'])
      expect((await stack.fetch(path, { headers: { accept: 'text/html' } })).status, path).toBe(200);
  });
});
