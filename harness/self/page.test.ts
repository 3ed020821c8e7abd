// Self-test of the conformance page (report.html) and badge (badge.svg) that certify writes. Built from a record with
// hostile text, the page escapes every character a testee chose and loads nothing from outside; the badge counts and
// colours the class rows. Then a passing and a failing certify run (the reference on two classes; a planted bug,
// debit-on-deny, on C3) are each opened from file:// in a real browser (chromium --headless --dump-dom, and a
// screenshot into that run's report folder, reports/self-shared/<run>/page.png: the runs are shared with other
// self-tests, ./shared-runs.ts), and what the page shows after its script
// ran is held to the run's record. Without chromium the browser part says so in one line and is skipped, unless
// JCP_REQUIRE_CHROMIUM=1 (.ci/run sets it after installing chromium), where it fails.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClause } from '../../spec-map/index.ts';
import { removeStaleReports } from '../commands/certify.ts';
import { blake3, toHex } from '../oracle.ts';
import { BADGE_COLOURS, badgeResult, badgeSvg } from '../report/badge.ts';
import { judge, type Judged } from '../report/expectations.ts';
import { conformancePage, escapeHtml, type PageInput } from '../report/page.ts';
import { classRows, type Footer, type Header } from '../report/record.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { CHROMIUM_REQUIRED as REQUIRED, dumpDom as chromiumDom, findChromium, htmlText as textOf, screenshot as chromiumShot } from './chromium.ts';
import { DEBIT_ON_DENY_C3, REFERENCE_C10_C11, sharedCertify } from './shared-runs.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-page-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const CHROMIUM = findChromium();

/** The page's DOM after its script ran. */
const dumpDom = (file: string, hash = ''): string => chromiumDom(CHROMIUM!, `${pathToFileURL(file).href}${hash}`);
const screenshot = (file: string, png: string): void => chromiumShot(CHROMIUM!, pathToFileURL(file).href, png);

/** The text of the element with this id in serialised HTML (a leaf element: the summary, the certificate line). */
function elementText(dom: string, id: string): string {
  const m = new RegExp(`<(div|p)\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(dom);
  return m ? textOf(m[2]!) : '';
}

/** Attributes that make a browser fetch something: none may point outside the page. */
const FETCHING = new Set(['src', 'href', 'action', 'srcset', 'poster', 'data', 'formaction', 'background', 'manifest']);

/** Every attribute of every tag of the page that would fetch something (a fragment link within the page fetches nothing). */
function fetchingAttributes(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.matchAll(/<[a-zA-Z][^>]*>/g))
    for (const a of tag[0].matchAll(/\s([a-zA-Z-]+)(?:="([^"]*)")?/g)) if (FETCHING.has(a[1]!.toLowerCase()) && !(a[2] ?? '').startsWith('#')) out.push(tag[0]);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!).join('');
  if (/url\(|@import/.test(styles)) out.push('a style that fetches');
  return out;
}

const HOSTILE = `</script><img src=x onerror="document.title='pwned'"><b>bold</b>`;

const header = (over: Partial<Header> = {}): Header => ({
  type: 'header',
  suite: { name: 'jcp-conformance', version: '0.0.0' },
  protocol: 'jcp-testee/1',
  testee: { name: `testee ${HOSTILE}`, version: '1', protocol: 'jcp-testee/1', claims: ['jcp:C3'], features: [], driver: 'testee: x' },
  digests: {},
  vector_packs: [],
  seed: 7,
  property_runs: 5,
  classes_requested: ['jcp:C3'],
  started_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const footer = (unexpected: number): Footer => ({ type: 'footer', counts: {}, unexpected, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: '2026-01-01T00:00:01.000Z', complete: true });
const line = (id: string, outcome: string, clauses: string[], more: Partial<TestLine> = {}): TestLine => ({ type: 'test', id, file: 'f.test.ts', title: id, clauses, classes: ['jcp:C3'], level: 'MUST', grade: 'spec', outcome, ...more });

/** A page from a record whose every testee-chosen text is hostile: the reason, the ids, the transcript, the case. */
function hostilePage(): { html: string; input: PageInput } {
  const { judged } = judge([
    line(`jcp:C3|jcp/7#debit-on-allow|a deny debits ${HOSTILE}`, 'failed', ['jcp/7#debit-on-allow'], {
      error: `expected 0, got 60 ${HOSTILE}`,
      notes: [HOSTILE],
      transcript: {
        exchanges: [{ op: `decide${HOSTILE}`, request: 'a0', request_diag: `{} ${HOSTILE}`, response: 'a163736571190221', response_diag: `{"seq": 545} ${HOSTILE}` }],
        stderr: HOSTILE,
      },
    }),
    line('jcp:C3|jcp/7#budget-exceeded|an over-budget call is denied', 'passed', ['jcp/7#budget-exceeded']),
  ]);
  const input: PageInput = {
    header: header(),
    footer: footer(1),
    rows: classRows(judged, ['jcp:C3'], ['jcp:C3']),
    judged,
    certificate: { reasons: [`the run did not complete ${HOSTILE}`] },
    cases: [
      {
        file: 'decisions-7-00.json',
        case: {
          format: 'jcp-property-case/1',
          property: 'decisions',
          clauses: ['jcp/7#debit-on-allow'],
          implementation: HOSTILE,
          seed: 7,
          path: '0:1',
          found_at_run: 1,
          shrinks: 2,
          ops: [],
          finding: { step: 0, op: { op: 'mint' }, kind: 'differs', detail: `step 0 differs ${HOSTILE}`, reference: HOSTILE, implementation: HOSTILE },
          reference: [],
          observed: [],
          exchanges: [],
        } as unknown as PageInput['cases'][number]['case'],
      },
    ],
    casesDir: join(TMP, 'cases'),
    // the two clauses the record names, not every clause of C3
    clauses: new Map(['jcp/7#debit-on-allow', 'jcp/7#budget-exceeded'].map((id) => [id, findClause(id)!])),
  };
  return { html: conformancePage(input), input };
}

describe('the page escapes what it quotes and loads nothing', () => {
  const { html } = hostilePage();

  it('shows a hostile reason, id, transcript and case as text: no element, attribute or script of theirs', () => {
    expect(html).not.toMatch(/<img|<b>bold|onerror="/i);
    expect(html.split(escapeHtml(HOSTILE)).length - 1).toBeGreaterThanOrEqual(8);
    expect(escapeHtml(HOSTILE)).toBe('&lt;/script&gt;&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;&lt;b&gt;bold&lt;/b&gt;');
    // the page's own two scripts only: the summary's labels (JSON, not run) and the filter
    expect(html.match(/<script\b/g)).toHaveLength(2);
  });

  it('is self-contained: no attribute or style fetches anything, and its policy lets only its own script run', () => {
    expect(fetchingAttributes(html)).toEqual([]);
    // what the check looks for: an attribute that fetches, in a tag
    expect(fetchingAttributes('<p><img src="x.png"></p><a href="#t1">')).toEqual(['<img src="x.png">']);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+'">/);
  });

  it('says why no certificate was issued, and opens the clause that does not hold with its case and seed', () => {
    expect(textOf(html)).toContain(`No certificate was issued: the run did not complete ${HOSTILE}.`);
    expect(html).toMatch(/<details class="clause fails" data-id="jcp\/7#debit-on-allow" data-standing="fails" data-classes="jcp:C3" open>/);
    expect(html).toMatch(/<details class="clause holds" data-id="jcp\/7#budget-exceeded" data-standing="holds"[^>]*>/);
    expect(textOf(html)).toContain(`jcp-conformance replay ${join(TMP, 'cases', 'decisions-7-00.json')}`);
    expect(textOf(html)).toContain("seed 7 replays it: jcp-conformance certify --testee 'x' --classes jcp:C3 --seed 7 --property-runs 5");
  });
});

describe('a later run into the same folder', () => {
  it("removes an earlier run's report.html and badge.svg, and leaves what certify did not write", () => {
    const dir = join(TMP, 'stale');
    mkdirSync(dir, { recursive: true });
    for (const f of ['report.html', 'badge.svg', 'page.png', 'notes.html']) writeFileSync(join(dir, f), 'x');
    expect(removeStaleReports(dir).sort()).toEqual(['badge.svg', 'report.html']);
    expect(existsSync(join(dir, 'page.png')) && existsSync(join(dir, 'notes.html'))).toBe(true);
    expect(existsSync(join(dir, 'report.html')) || existsSync(join(dir, 'badge.svg'))).toBe(false);
  });
});

describe('the badge', () => {
  const rows = (outcomes: Record<string, string>, claims: string[]) =>
    classRows(judge(Object.entries(outcomes).map(([k, o]) => ({ ...line(`${k}|jcp/7#expired|t`, o, ['jcp/7#expired']), classes: [k] }))).judged, claims, Object.keys(outcomes));

  it('counts the claimed classes that pass, and is green when all do, red when one fails, amber otherwise', () => {
    const all = rows({ 'jcp:C1': 'passed', 'jcp:C2': 'passed' }, ['jcp:C1', 'jcp:C2']);
    expect(badgeResult(all)).toEqual({ passing: 2, claimed: 2, colour: BADGE_COLOURS.pass, text: '2/2 classes' });
    const one = rows({ 'jcp:C1': 'passed', 'jcp:C2': 'failed', 'jcp:C3': 'passed' }, ['jcp:C1', 'jcp:C2']);
    expect(badgeResult(one)).toEqual({ passing: 1, claimed: 2, colour: BADGE_COLOURS.fail, text: '1/2 classes' });
    const partial = rows({ 'jcp:C1': 'passed', 'jcp:C2': 'not applicable' }, ['jcp:C1', 'jcp:C2']);
    expect(badgeResult(partial).colour).toBe(BADGE_COLOURS.partial);
    expect(badgeResult(rows({ 'jcp:C1': 'passed' }, [])).text).toBe('no class claimed');
    expect(badgeResult(all, false).colour).toBe(BADGE_COLOURS.fail);
    const svg = badgeSvg(one);
    expect(svg).toContain('<title>JCP conformance: 1/2 classes</title>');
    expect(svg).toContain(`fill="${BADGE_COLOURS.fail}"`);
  });
});

if (!CHROMIUM) {
  if (REQUIRED) {
    it('the page in a real browser: JCP_REQUIRE_CHROMIUM=1 asks for chromium, and none answers', () => {
      expect.fail('no chromium answers --version (apt-get install chromium, or set JCP_CHROMIUM)');
    });
  } else {
    console.warn('report.html: no chromium (apt-get install chromium); the page was not opened in a browser');
  }
}

function recordOf(dir: string): { header: Header; tests: Judged[] } {
  const lines = readFileSync(join(dir, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; unexpected?: number });
  return {
    header: lines[0] as unknown as Header,
    tests: lines.filter((l) => l.type === 'test').map((l) => ({ ...(l as unknown as TestLine), unexpected: l.unexpected === 1 })),
  };
}

describe.skipIf(!CHROMIUM)('the page in a real browser', () => {

  it('a hostile record: its text shows as text, no element of it exists, and the page script ran', () => {
    const file = join(TMP, 'hostile.html');
    writeFileSync(file, hostilePage().html);
    const dom = dumpDom(file);
    expect(dom).not.toMatch(/<img|<b>bold/i);
    expect(textOf(dom)).toContain(`expected 0, got 60 ${HOSTILE}`);
    expect(dom).not.toMatch(/<title>pwned/);
    expect(elementText(dom, 'summary')).toBe('FAIL: 1 unexpected result(s). 2 of 2 clause(s) shown: 1 not holding, 1 holding. Not holding: jcp/7#debit-on-allow.');
  }, 180_000);

  describe('a passing run: the reference on C10 and C11', () => {
    let dir = '';
    let run = { status: -1, out: '' };
    beforeAll(async () => {
      const r = await sharedCertify('reference-c10-c11', REFERENCE_C10_C11);
      dir = r.dir;
      run = { status: r.status, out: `${r.stdout}\n${r.stderr}` };
    }, 900_000);

    it('certify writes report.html and badge.svg and names them; the page shows PASS and every clause holding or not applicable', () => {
      expect(run.status, run.out).toBe(0);
      expect(run.out).toMatch(/reports in .*: record\.jsonl, junit\.xml, summary\.md, allure-results\/, report\.html, badge\.svg, certificate\.cose/);
      expect(fetchingAttributes(readFileSync(join(dir, 'report.html'), 'utf8'))).toEqual([]);
      const dom = dumpDom(join(dir, 'report.html'));
      screenshot(join(dir, 'report.html'), join(dir, 'page.png'));
      const summary = elementText(dom, 'summary');
      expect(summary).toMatch(/^PASS: no unexpected results\. (\d+) of \1 clause\(s\) shown: /);
      expect(summary).not.toMatch(/not holding/);
      const { header, tests } = recordOf(dir);
      // every clause of the two classes is on the page, marked by the tests that name it
      const shown = [...dom.matchAll(/<details class="clause [a-z]+" data-id="([^"]+)" data-standing="([a-z]+)"/g)].map((m) => [m[1]!, m[2]!] as const);
      expect(shown.length).toBeGreaterThan(0);
      for (const [id, standing] of shown) {
        const named = tests.filter((t) => t.clauses.includes(id));
        expect(standing, id).toBe(named.some((t) => t.outcome === 'passed') ? 'holds' : named.length ? 'inapplicable' : 'untested');
      }
      expect(header.classes_requested).toEqual(['jcp:C10', 'jcp:C11']);
      for (const k of ['jcp:C10', 'jcp:C11']) expect(dom).toMatch(new RegExp(`<tr class="v-PASS" data-class="${k}"><td>${k}</td><td class="v">PASS</td>`));
      // the certificate: its signer as certify named it, and the blake3 of the file's bytes
      const did = /signed by (did:key:z[1-9A-HJ-NP-Za-km-z]+)/.exec(run.out)?.[1];
      expect(elementText(dom, 'certificate')).toContain(`signed by ${did}; blake3 of its bytes ${toHex(blake3(readFileSync(join(dir, 'certificate.cose'))))}`);
      expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('<title>JCP conformance: 2/2 classes</title>');
      expect(readFileSync(join(dir, 'page.png')).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }, 300_000);

    it('filters from the address: outcome "holds" shows only holding clauses, a class only its own', () => {
      const all = [...dumpDom(join(dir, 'report.html')).matchAll(/data-standing="([a-z]+)" data-classes="([^"]*)"/g)];
      const holding = all.filter((m) => m[1] === 'holds').length;
      const c11 = all.filter((m) => m[2]!.split(' ').includes('jcp:C11')).length;
      expect(elementText(dumpDom(join(dir, 'report.html'), '#outcome=holds'), 'summary')).toMatch(new RegExp(`^PASS: no unexpected results\\. ${holding} of ${all.length} clause\\(s\\) shown: ${holding} holding\\.$`));
      expect(elementText(dumpDom(join(dir, 'report.html'), '#class=jcp%3AC11'), 'summary')).toMatch(new RegExp(`\\. ${c11} of ${all.length} clause\\(s\\) shown`));
      expect(c11).toBeLessThan(all.length);
    }, 300_000);
  });

  describe('a failing run: a planted bug (debit-on-deny) on C3', () => {
    let dir = '';
    let run = { status: -1, out: '' };
    let runStartedMs = 0;
    beforeAll(async () => {
      const r = await sharedCertify('debit-on-deny-c3', DEBIT_ON_DENY_C3);
      dir = r.dir;
      runStartedMs = r.startedMs;
      run = { status: r.status, out: `${r.stdout}\n${r.stderr}` };
    }, 900_000);

    it('the page shows FAIL, the run\'s date, the clause the bug breaks, its reason, its case and its transcript', () => {
      expect(run.status, run.out).toBe(1);
      expect(fetchingAttributes(readFileSync(join(dir, 'report.html'), 'utf8'))).toEqual([]);
      const dom = dumpDom(join(dir, 'report.html'));
      screenshot(join(dir, 'report.html'), join(dir, 'page.png'));
      expect(existsSync(join(dir, 'page.png'))).toBe(true);
      const { tests } = recordOf(dir);
      const unexpected = tests.filter((t) => t.unexpected);
      const summary = elementText(dom, 'summary');
      expect(summary).toMatch(new RegExp(`^FAIL: ${unexpected.length} unexpected result\\(s\\)\\. `));
      // jcp §7: a deny debits nothing — the rule debit-on-deny breaks
      expect(summary).toMatch(/Not holding: .*jcp\/7#debit-on-allow[,.]/);
      expect(dom).toMatch(/<details class="clause fails" data-id="jcp\/7#debit-on-allow" data-standing="fails" data-classes="[^"]*jcp:C3[^"]*" open="">/);
      expect(dom).toMatch(/<tr class="v-FAIL" data-class="jcp:C3"><td>jcp:C3<\/td><td class="v">FAIL<\/td>/);
      // a failing test of that clause, shown under it: its reason and the start of its last response, as the record has them
      const t = unexpected.find((x) => x.clauses[0] === 'jcp/7#debit-on-allow' && (x.transcript?.exchanges?.length ?? 0) > 0);
      expect(t, 'a failing debit-on-allow test with a transcript').toBeDefined();
      const text = textOf(dom);
      expect(text).toContain(t!.id);
      expect(text).toContain((t!.error ?? '').split('\n')[0]!.slice(0, 300));
      const last = t!.transcript!.exchanges!.at(-1)!;
      expect(text).toContain(last.response.slice(0, 200));
      expect(text).toContain(last.response_diag.slice(0, 200));
      // the differential property's shrunk case and the seed that replays the run
      expect(text).toMatch(/shrunk counterexample: decisions-\d+-[0-9a-f]+\.json/);
      expect(text).toContain(`--classes jcp:C3 --seed ${recordOf(dir).header.seed} --property-runs 5`);
      // the date of the run, as its record has it: the day certify ran (no wall-clock value is asserted beyond that)
      const started = recordOf(dir).header.started_at;
      expect(new Date(started).toISOString().slice(0, 10)).toBe(new Date(runStartedMs).toISOString().slice(0, 10));
      expect(text).toContain(`started ${started}`);
      expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain(`fill="${BADGE_COLOURS.fail}"`);
      expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('<title>JCP conformance: 0/1 classes</title>');
    }, 300_000);
  });
});
