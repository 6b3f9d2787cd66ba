import { chromium, type Browser } from 'playwright-core';

/** The machine's Chromium, headless, without the background traffic a test has no use for. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/** Opens `url` in a new page and records every request it makes and every problem the browser reports (CSP refusals included). */
export async function visit(browser: Browser, url: string) {
  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const response = await page.goto(url, { waitUntil: 'load' });
  return { page, response, requests, problems };
}
