/**
 * The browser harness itself: Chromium starts, renders a loopback page, runs its script, and the request
 * log tells the page's own origin from another (a second loopback server stands in for a foreign host).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumPath, foreignRequests, launchChromium, NO_BROWSER, watchedPage } from './chromium.js';

const available = chromiumPath() !== null;
if (!available) console.warn(`[sleep] ${NO_BROWSER}`);

function serve(
  handler: (path: string) => { type: string; body: string },
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const { type, body } = handler(req.url ?? '/');
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    }),
  );
}

describe.skipIf(!available)('browser harness (Chromium via playwright-core)', () => {
  let browser: Browser;
  let own: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  beforeAll(async () => {
    browser = await launchChromium();
    other = await serve(() => ({ type: 'text/plain', body: 'x' }));
    own = await serve((p) =>
      p === '/'
        ? {
            type: 'text/html',
            body: `<!doctype html><p id="out">waiting</p><img src="${other.origin}/pixel"><script>document.getElementById('out').textContent = 'ran ' + (2 + 3)</script>`,
          }
        : { type: 'text/plain', body: '' },
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    own?.server.close();
    other?.server.close();
  });

  it('renders a page, runs its script and records where it went', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${own.origin}/`);
    await w.page.waitForLoadState('networkidle');
    expect(await w.page.textContent('#out')).toBe('ran 5');
    expect(foreignRequests(w.requests, own.origin)).toEqual([`${other.origin}/pixel`]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });
});
