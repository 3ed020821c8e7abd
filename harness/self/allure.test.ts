// Self-tests of the Allure view end to end: a small failing certify (a planted bug, debit on deny, under class C3)
// writes allure-results through Allure's own library (harness/report/allure.ts), read back here in Allure's own JSON
// shape; `report --html` renders them into one file, which headless Chromium opens from file:// and shows. The
// report folder is kept (reports/self-shared/debit-on-deny-c3/, with the browser's screenshot allure.png) for a
// person to look at; the run is shared with the other self-tests that read it (./shared-runs.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMIT, exchangesText, statusOf, suiteOf, transcriptJson } from '../report/allure.ts';
import { cliPath } from './cli.ts';
import type { Header } from '../report/record.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { CHROMIUM_REQUIRED, dumpDom, findChromium, screenshot, visibleText } from './chromium.ts';
import { DEBIT_ON_DENY_C3, sharedCertify } from './shared-runs.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The shared planted-bug run's report folder (./shared-runs.ts), set once it is made. */
let DIR = '';

/** A result file as Allure's model writes it (allure-js-commons TestResult). */
interface AllureResult {
  readonly uuid: string;
  readonly name: string;
  readonly fullName: string;
  readonly status: string;
  readonly statusDetails: { readonly message?: string; readonly trace?: string };
  readonly labels: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly attachments: ReadonlyArray<{ readonly name: string; readonly source: string; readonly type?: string }>;
  readonly start: number;
  readonly stop: number;
}

type Line = TestLine & { readonly unexpected: number };

function cli(args: string[]): { status: number; out: string } {
  // the guard only stops a hung run from hanging the suite; no assertion reads the time
  const r = spawnSync(process.execPath, [cliPath(), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_TRANSCRIPT: '' } });
  return { status: r.status ?? -1, out: `${r.stdout}\n${r.stderr}` };
}

const labels = (r: AllureResult, name: string) => r.labels.filter((l) => l.name === name).map((l) => l.value);
const firstLine = (s: string) => s.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';

let before = 0;
let after = 0;
let header: Header;
let lines: Line[];
let results: Map<string, AllureResult>;

describe('the view, in process', () => {
  const exchange = (i: number, size = 8) => ({ op: `op${i}`, request: `a1${'00'.repeat(size)}${i}`, request_diag: `{"n": ${i}}`, response: 'a0', response_diag: '{}' });

  it('numbers exchanges past the ones the driver left out, and says where they were', () => {
    // the driver keeps the first `after` exchanges and the last ones (harness/report/record-reporter.ts TestTranscript)
    const text = exchangesText({ exchanges: [exchange(1), exchange(2), exchange(3)], left_out: { count: 5, after: 2 } });
    expect([...text.matchAll(/^exchange (\d+): op(\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [1, 1],
      [2, 2],
      [8, 3],
    ]);
    expect(text.indexOf('5 exchange(s) left out here')).toBeGreaterThan(text.indexOf('exchange 2:'));
    expect(text.indexOf('5 exchange(s) left out here')).toBeLessThan(text.indexOf('exchange 8:'));
    expect(text).toContain(exchange(3).request);
    expect(text).toContain(exchange(3).request_diag);
  });

  it('shows a transcript over the limit by its first and last exchanges, numbered, within twice the limit', () => {
    const n = 200;
    const big = { exchanges: Array.from({ length: n }, (_, i) => exchange(i + 1, 2048)) };
    expect(JSON.stringify(big).length).toBeGreaterThan(ATTACHMENT_LIMIT);
    const shown = JSON.parse(transcriptJson(big)) as { cut: string; exchanges: Array<{ number: number; op: string }> };
    expect(transcriptJson(big).length).toBeLessThan(2 * ATTACHMENT_LIMIT);
    const numbers = shown.exchanges.map((x) => x.number);
    expect(numbers[0]).toBe(1);
    expect(numbers.at(-1)).toBe(n);
    expect(numbers.length).toBeLessThan(n);
    expect(shown.exchanges.every((x) => x.op === `op${x.number}`)).toBe(true);
    const text = exchangesText(big);
    expect(text.length).toBeLessThan(2 * ATTACHMENT_LIMIT);
    expect(text).toContain(`${n - numbers.length} exchange(s) left out here`);
    // within the limit, the transcript is the record's own
    const small = { exchanges: [exchange(1)] };
    expect(transcriptJson(small)).toBe(JSON.stringify(small, null, 2));
  });

  it('fails what fails the run (broken for a program fault, failed for an unexpected pass), skips what does not', () => {
    expect(statusOf({ outcome: 'timeout', unexpected: true })).toBe('broken');
    expect(statusOf({ outcome: 'failed', unexpected: true })).toBe('failed');
    expect(statusOf({ outcome: 'passed', unexpected: true })).toBe('failed');
    expect(statusOf({ outcome: 'passed', unexpected: false })).toBe('passed');
    for (const outcome of ['expected failure', 'not applicable', 'not claimed', 'acceptable', 'failed']) expect(statusOf({ outcome, unexpected: false }), outcome).toBe('skipped');
  });
});

/** The visible text of a page as headless Chromium renders it, given `budgetMs` of virtual time. */
const renderedText = (browser: string, url: string, budgetMs: number): string => visibleText(dumpDom(browser, url, budgetMs));

/** The rendered text once it shows `ready` (the app renders after loading its data: a longer budget each try). */
function renderedWhen(browser: string, url: string, ready: string): string {
  let text = '';
  for (const budget of [10_000, 20_000, 40_000]) {
    text = renderedText(browser, url, budget);
    if (text.includes(ready)) break;
  }
  return text;
}

describe('a failing certify run (debit on deny, class C3)', () => {
  beforeAll(async () => {
    // the run's own clock readings bound every start and stop below; no wall-clock value is asserted
    const r = await sharedCertify('debit-on-deny-c3', DEBIT_ON_DENY_C3);
    DIR = r.dir;
    before = r.startedMs;
    after = r.endedMs;
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(1);
    const record = readFileSync(join(DIR, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    header = record[0] as Header;
    lines = record.filter((l): l is Line => l.type === 'test');
    const dir = join(DIR, 'allure-results');
    const all = readdirSync(dir).filter((f) => f.endsWith('-result.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AllureResult);
    results = new Map(all.map((x) => [x.fullName, x]));
    expect(all).toHaveLength(results.size);
  }, 900_000);

  const resultOf = (l: Line): AllureResult => {
    const r = results.get(l.id);
    if (!r) throw new Error(`no Allure result for ${l.id}`);
    return r;
  };

  describe('allure-results, read back in Allure\'s own shape', () => {
    it('holds one result per recorded test, each started and stopped within the run, lasting what the record says', () => {
      expect(results.size).toBe(lines.length);
      for (const l of lines) {
        const r = resultOf(l);
        expect(r.start, l.id).toBeGreaterThanOrEqual(before);
        expect(r.stop, l.id).toBeLessThanOrEqual(after);
        expect(r.stop - r.start, l.id).toBe(l.duration_ms ?? 0);
      }
    });

    it('fails an unexpected failure with the outcome and its reason as the message and the whole error as the trace', () => {
      const failed = lines.filter((l) => l.outcome === 'failed' && l.unexpected === 1);
      expect(failed.length).toBeGreaterThan(0);
      for (const l of failed) {
        const r = resultOf(l);
        expect(r.status).toBe('failed');
        expect(r.statusDetails.message).toBe(`failed: ${firstLine(l.error ?? '')}`);
        expect(r.statusDetails.trace).toContain(l.error);
      }
      const passed = lines.filter((l) => l.outcome === 'passed');
      expect(passed.length).toBeGreaterThan(0);
      for (const l of passed) expect(resultOf(l).status).toBe('passed');
    });

    it('labels every class of a test as a feature and a suite, each clause as a story, the spec as epic, the level as severity', () => {
      const multi = lines.filter((l) => l.classes.length > 1);
      expect(multi.length).toBeGreaterThan(0);
      for (const l of lines) {
        const r = resultOf(l);
        expect(labels(r, 'feature').sort()).toEqual([...l.classes].sort());
        expect(labels(r, 'suite').sort()).toEqual(l.classes.map(suiteOf).sort());
        expect(labels(r, 'story')).toEqual(l.clauses);
        expect(labels(r, 'subSuite')).toEqual([l.clauses[0]]);
        // the clause ids name their spec before the slash (spec-map/clauses/<spec>.json)
        expect(labels(r, 'epic').sort()).toEqual([...new Set(l.clauses.map((c) => c.slice(0, c.indexOf('/'))))].sort());
        expect(labels(r, 'severity')).toEqual([['MUST', 'MUST NOT', 'REQUIRED'].includes(l.level) ? 'critical' : 'normal']);
      }
    });

    it('names the classes so that a text sort puts them in their own order (jcp:C3 before jcp:C10)', () => {
      const classes = [...new Set(lines.flatMap((l) => l.classes))].filter((k) => /:C\d+$/.test(k));
      expect(classes.length).toBeGreaterThan(2);
      const byNumber = [...classes].sort((a, b) => Number(a.slice(a.lastIndexOf('C') + 1)) - Number(b.slice(b.lastIndexOf('C') + 1)));
      expect(classes.map(suiteOf).sort()).toEqual(byNumber.map(suiteOf));
    });

    it('gives every result the seed and the testee as parameters', () => {
      for (const l of lines) {
        const p = Object.fromEntries(resultOf(l).parameters.map((x) => [x.name, x.value]));
        expect(p).toEqual({ seed: String(header.seed), testee: `${header.testee.name} ${header.testee.version}` });
      }
    });

    it("attaches a failing test's transcript: the record's exchanges as JSON, and each request's hex as text", () => {
      const withTranscript = lines.filter((l) => l.transcript && l.outcome !== 'passed');
      expect(withTranscript.length).toBeGreaterThan(0);
      const source = (l: Line, name: (n: string) => boolean) => {
        const a = resultOf(l).attachments.find((x) => name(x.name));
        expect(a && existsSync(join(DIR, 'allure-results', a.source)), `${l.id}: attachment`).toBe(true);
        return readFileSync(join(DIR, 'allure-results', a!.source), 'utf8');
      };
      let whole = 0;
      for (const l of withTranscript) {
        const json = source(l, (n) => n === 'transcript.json');
        const text = source(l, (n) => n.startsWith('exchanges'));
        const t = l.transcript as { exchanges?: ReadonlyArray<{ request: string }>; request?: string };
        const requests = t.exchanges ? t.exchanges.map((x) => x.request) : [t.request ?? ''];
        expect(requests.length, l.id).toBeGreaterThan(0);
        const recorded = JSON.stringify(l.transcript, null, 2);
        if (recorded.length <= ATTACHMENT_LIMIT) {
          whole++;
          // plain comparisons: a failing one names the test, without printing a whole transcript
          expect(json === recorded, `${l.id}: transcript.json is the record's transcript`).toBe(true);
          for (const hex of requests) expect(text.includes(hex), `${l.id}: request ${hex.slice(0, 32)}… in the text`).toBe(true);
        } else {
          // over the limit: the first and the last exchanges, numbered, each field cut where it is too long
          const shown = JSON.parse(json) as { cut: string; exchanges: Array<{ number: number; request: string }> };
          expect(json.length, l.id).toBeLessThan(2 * ATTACHMENT_LIMIT);
          expect(shown.exchanges.length, l.id).toBeLessThan(requests.length);
          expect(shown.exchanges[0]!.number).toBe(1);
          expect(requests[0]!.startsWith(shown.exchanges[0]!.request.replace(/… \(\d+ more characters in record\.jsonl\)$/, ''))).toBe(true);
          expect(text).toMatch(/exchange\(s\) left out here/);
        }
      }
      expect(whole, 'transcripts attached whole').toBeGreaterThan(0);
    });

    it('attaches the shrunk case file to the differential property that wrote it', () => {
      const cases = readdirSync(join(DIR, 'cases')).filter((f) => f.endsWith('.json'));
      expect(cases.length).toBeGreaterThan(0);
      const property = lines.find((l) => l.title.startsWith('differential/') && l.outcome === 'failed');
      expect(property).toBeDefined();
      const a = resultOf(property!).attachments.filter((x) => x.name.startsWith('case '));
      expect(a.map((x) => x.name.slice('case '.length)).sort()).toEqual(cases.filter((f) => property!.error!.includes(f)).sort());
      for (const x of a) expect(readFileSync(join(DIR, 'allure-results', x.source), 'utf8')).toBe(readFileSync(join(DIR, 'cases', x.name.slice('case '.length)), 'utf8'));
    });
  });

  describe('report --html', () => {
    it('renders one file that opens from file://: the run\'s date, the failing test, its clause, its reason and its transcript attachment', (ctx) => {
      const r = cli(['report', '--html', DIR]);
      expect(r.status, r.out).toBe(0);
      const index = join(DIR, 'allure-report', 'index.html');
      const html = readFileSync(index, 'utf8');
      // one file: every script and image inline, nothing loaded from beside it or from the network
      expect(html.match(/\b(?:src|href)="(?!data:|#)[^"]*"/g) ?? []).toEqual([]);
      expect(html).not.toContain('googletagmanager');
      const browser = findChromium();
      if (!browser) {
        if (CHROMIUM_REQUIRED) throw new Error('JCP_REQUIRE_CHROMIUM=1, and no chromium on the PATH');
        console.log('no chromium on the PATH: the report is not opened in a browser (set JCP_REQUIRE_CHROMIUM=1 to require it)');
        ctx.skip();
        return;
      }
      const url = pathToFileURL(index).href;
      const property = lines.find((l) => l.title.startsWith('differential/') && l.outcome === 'failed')!;
      const main = renderedWhen(browser, url, property.title);
      // the report is dated by its earliest test's start (in the browser's time zone, UTC here)
      const earliest = Math.min(...[...results.values()].map((x) => x.start));
      expect(main).toContain(new Date(earliest).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' }));
      expect(main).toContain(`JCP conformance: ${header.testee.name}`);
      expect(main).toContain(property.title);
      // the test's own page: allure-report/test-results.json names the page of each test
      const pages = (JSON.parse(readFileSync(join(DIR, 'allure-report', 'test-results.json'), 'utf8')) as { byId: Record<string, { id: string; name: string }> }).byId;
      const page = Object.values(pages).find((p) => p.name === property.title);
      expect(page).toBeDefined();
      const reason = firstLine(property.error ?? '');
      const shown = renderedWhen(browser, `${url}#${page!.id}`, reason);
      expect(shown).toContain(property.title);
      expect(shown).toContain(property.clauses[0]);
      expect(shown).toContain(`failed: ${reason}`);
      // and its transcript attachment, listed on the test's page
      expect(property.transcript?.exchanges?.length ?? 0).toBeGreaterThan(0);
      expect(shown).toMatch(/transcript\.json application\/json/);
      const shot = join(DIR, 'allure.png');
      screenshot(browser, url, shot, 20_000);
      expect(readFileSync(shot).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }, 600_000);
  });
});
