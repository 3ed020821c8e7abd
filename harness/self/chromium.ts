// Headless Chromium for the self-tests that open a report as a reader would (harness/self/page.test.ts,
// allure.test.ts): finding one, the DOM a page has after its scripts ran, a screenshot, and the text of serialised
// HTML. The browser runs in UTC with English dates, so what a page shows does not depend on the machine.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/** Set by .ci/run after installing chromium: its absence is then a failure, not a line saying so. */
export const CHROMIUM_REQUIRED = process.env['JCP_REQUIRE_CHROMIUM'] === '1';

/** The first chromium that answers --version: $JCP_CHROMIUM, chromium, chromium-browser, then Debian's own. */
export function findChromium(): string | undefined {
  for (const c of [process.env['JCP_CHROMIUM'], 'chromium', 'chromium-browser', '/usr/bin/chromium']) {
    if (c && spawnSync(c, ['--version'], { stdio: 'ignore', timeout: 30_000 }).status === 0) return c;
  }
  return undefined;
}

const ENV = () => ({ ...process.env, TZ: 'UTC' });
const base = (budgetMs?: number) => ['--headless', '--no-sandbox', '--disable-gpu', '--lang=en-US', ...(budgetMs !== undefined ? [`--virtual-time-budget=${budgetMs}`] : [])];

/** The DOM of the page at `url` after its scripts ran (given `budgetMs` of virtual time when set), as chromium serialises it. */
export function dumpDom(browser: string, url: string, budgetMs?: number): string {
  const r = spawnSync(browser, [...base(budgetMs), '--dump-dom', url], { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024, env: ENV() });
  if (r.status !== 0) throw new Error(`chromium --dump-dom ${url}: status ${r.status}\n${r.stderr.slice(-2000)}`);
  return r.stdout;
}

/** A PNG of the page at `url`, 1280 × 2000, written to `png`. */
export function screenshot(browser: string, url: string, png: string, budgetMs?: number): void {
  const r = spawnSync(browser, [...base(budgetMs), `--screenshot=${png}`, '--window-size=1280,2000', url], { cwd: dirname(png), encoding: 'utf8', timeout: 120_000, env: ENV() });
  if (r.status !== 0) throw new Error(`chromium --screenshot ${url}: status ${r.status}\n${r.stderr.slice(-2000)}`);
}

/** The text of serialised HTML: tags dropped, character references read (what a reader sees). */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The visible text of a serialised page: its body without scripts and styles, each tag a space, runs of space one. */
export function visibleText(html: string): string {
  const body = html.slice(Math.max(0, html.indexOf('<body')));
  return htmlText(body.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ' ').replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}
