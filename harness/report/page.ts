// The conformance page: one self-contained HTML file (inline CSS and script, no external URL, no server), derived from
// the record alone. At the top the per-class verdicts with their three grades and the certificate (its signer and
// digest, or why none was issued); then every clause of the claimed classes, grouped by spec section, with its quote,
// level, tests and their results; a clause that does not hold is open, with each reason, the differential properties'
// shrunk cases that name it, the seed that replays the run and the transcript. A filter by class and by outcome runs
// in the page. Everything a testee said (reasons, ids, bytes) is escaped: it is shown as text, never read as markup.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { allClauses, type Clause } from '../../spec-map/index.ts';
import type { PropertyCase } from '../property/case.ts';
import { NEUTRAL, type Judged } from './expectations.ts';
import { classLabel, contractCell, SUITE_PROFILE_NOTE, type ClassRow, type Footer, type Header } from './record.ts';
import type { TestTranscript } from './record-reporter.ts';

/** The page's file name in the report folder. */
export const PAGE_FILE = 'report.html';

/** What the run's certificate was: who signed it and the digest of its bytes, or why none was issued. */
export type CertificateLine = { readonly signer: string; readonly digest: string; readonly algorithm: string } | { readonly reasons: readonly string[] };

/** A case file of the differential properties (<report>/cases/), by its file name. */
export interface CaseFile {
  readonly file: string;
  readonly case: PropertyCase;
}

/** What the page is made of: the record's header, footer and judged tests, the class rows, the certificate and cases. */
export interface PageInput {
  readonly header: Header;
  readonly footer: Footer;
  readonly rows: readonly ClassRow[];
  readonly judged: readonly Judged[];
  readonly certificate: CertificateLine;
  readonly cases: readonly CaseFile[];
  /** The folder the case files are in, as the replay command names them. */
  readonly casesDir: string;
  /** The clause index (default: spec-map/clauses/). */
  readonly clauses?: ReadonlyMap<string, Clause>;
}

/**
 * The most exchanges of one test the page shows (its last ones: a failure ends a test), and the most characters of
 * one hex or diagnostic text; what is left out is said in place, and the record (record.jsonl) has it all. A test's
 * details are shown once, under the first clause it names; its other clauses link there.
 */
export const PAGE_EXCHANGES = 8;
export const PAGE_TEXT_CHARS = 4096;

/** The case files of a run, read from `dir` (those that are not case files are left out). */
export function readCases(dir: string): CaseFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const out: CaseFile[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    try {
      const c = JSON.parse(readFileSync(join(dir, file), 'utf8')) as PropertyCase;
      if (c && c.format === 'jcp-property-case/1' && Array.isArray(c.clauses)) out.push({ file, case: c });
    } catch {
      // not JSON: not a case file this page can show
    }
  }
  return out;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `s` as HTML text or a quoted attribute value: no character of it can open or close markup. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const h = escapeHtml;

/** A clause's standing in this run, from the tests that name it (worst first). */
type Standing = 'fails' | 'expected' | 'short' | 'holds' | 'inapplicable' | 'untested';

const STANDING_LABEL: Record<Standing, string> = {
  fails: 'does not hold',
  expected: 'expected failure',
  short: 'not met, graded apart',
  holds: 'holds',
  inapplicable: 'not applicable',
  untested: 'no test',
};

/** The same, as the summary counts them ("3 not holding"). */
const TALLY_LABEL: Record<Standing, string> = {
  fails: 'not holding',
  expected: 'expected to fail',
  short: 'not met, graded apart',
  holds: 'holding',
  inapplicable: 'not applicable',
  untested: 'untested',
};

function standingOf(tests: readonly Judged[]): Standing {
  if (tests.length === 0) return 'untested';
  if (tests.some((t) => t.unexpected)) return 'fails';
  if (tests.some((t) => t.outcome === 'expected failure')) return 'expected';
  if (tests.some((t) => t.outcome !== 'passed' && !NEUTRAL.has(t.outcome))) return 'short';
  if (tests.some((t) => t.outcome === 'passed')) return 'holds';
  return 'inapplicable';
}

const counts = (c: Readonly<Record<string, number>>): string =>
  Object.entries(c)
    .sort()
    .map(([k, v]) => `${v} ${k}`)
    .join(', ') || '—';

/** Section numbers in reading order: 4.2 before 4.10, a spec's sections after its name. */
function sectionKey(spec: string, section: string): string {
  return `${spec} ${section
    .split('.')
    .map((p) => (/^\d+$/.test(p) ? p.padStart(4, '0') : p))
    .join('.')}`;
}

/** `s`, cut to PAGE_TEXT_CHARS, saying how much was left out. */
function bounded(s: string): string {
  return s.length <= PAGE_TEXT_CHARS ? h(s) : `${h(s.slice(0, PAGE_TEXT_CHARS))}<span class="cut"> … ${s.length - PAGE_TEXT_CHARS} more characters in record.jsonl</span>`;
}

function transcriptHtml(t: TestTranscript): string {
  const xs = t.exchanges ?? [];
  const shown = xs.slice(-PAGE_EXCHANGES);
  const first = xs.length - shown.length;
  const leftOut = t.left_out?.count ?? 0;
  const notes: string[] = [];
  if (leftOut) notes.push(`the driver left out ${leftOut} exchange(s) after the ${t.left_out!.after}th (over its bound): the record says so too`);
  if (first) notes.push(`the first ${first} of the ${xs.length} exchange(s) recorded are not shown here: record.jsonl has every one`);
  const parts = [`<div class="transcript">`, ...notes.map((n) => `<p class="cut">${h(n)}</p>`)];
  shown.forEach((x, i) => {
    const n = first + i + 1 + (t.left_out && first + i >= t.left_out.after ? leftOut : 0);
    parts.push(
      `<div class="exchange"><div class="op">exchange ${n}: ${h(x.op)}</div>`,
      `<div class="k">request</div><pre class="hex">${bounded(x.request)}</pre><pre class="diag">${bounded(x.request_diag)}</pre>`,
      `<div class="k">response</div><pre class="hex">${bounded(x.response)}</pre><pre class="diag">${bounded(x.response_diag)}</pre></div>`,
    );
  });
  if (t.request !== undefined) parts.push(`<div class="exchange"><div class="op">the request the testee gave no valid answer to${t.op ? `: ${h(t.op)}` : ''}</div><pre class="hex">${bounded(t.request)}</pre><pre class="diag">${bounded(t.request_diag ?? '')}</pre></div>`);
  if (t.response !== undefined) parts.push(`<div class="exchange"><div class="op">what it answered</div><pre class="hex">${bounded(t.response)}</pre><pre class="diag">${bounded(t.response_diag ?? '')}</pre></div>`);
  if (t.stderr !== undefined) parts.push(`<div class="k">testee stderr</div><pre>${bounded(t.stderr)}</pre>`);
  if (!xs.length && t.request === undefined && t.stderr === undefined) parts.push('<p>no exchange with the implementation</p>');
  parts.push('</div>');
  return parts.join('');
}

function caseHtml(c: CaseFile, casesDir: string): string {
  const k = c.case;
  return [
    `<div class="case"><div class="k">shrunk counterexample: ${h(c.file)}</div>`,
    `<p>property <code>${h(k.property)}</code>, seed <code>${h(String(k.seed))}</code>, path <code>${h(k.path)}</code>; found at sequence ${h(String(k.found_at_run))}, shrunk ${h(String(k.shrinks))} time(s)</p>`,
    `<p class="finding">${h(k.finding?.detail ?? '')}</p>`,
    `<p>replay: <code>jcp-conformance replay ${h(join(casesDir, c.file))}</code></p>`,
    `<pre>${bounded(JSON.stringify(k.ops, null, 1))}</pre>`,
    k.finding ? `<pre>${bounded(JSON.stringify({ reference: k.finding.reference, implementation: k.finding.implementation }, null, 1))}</pre>` : '',
    '</div>',
  ].join('');
}

function replayCommand(header: Header): string {
  const d = header.testee.driver;
  const testee = d.startsWith('testee: ') ? ` --testee '${d.slice('testee: '.length)}'` : d.startsWith('jcp/1 endpoint: ') ? ` --endpoint ${d.slice('jcp/1 endpoint: '.length)}` : '';
  const classes = header.classes_requested === 'all' ? '' : ` --classes ${header.classes_requested.join(',')}`;
  const runs = header.property_runs !== undefined ? ` --property-runs ${header.property_runs}` : '';
  return `jcp-conformance certify${testee}${classes} --seed ${header.seed}${runs}`;
}

function testHtml(t: Judged, p: PageInput, anchor: string, home: string | undefined): string {
  const bad = t.outcome !== 'passed';
  const status = t.unexpected ? 'fails' : bad && !NEUTRAL.has(t.outcome) && t.outcome !== 'expected failure' ? 'short' : t.outcome === 'passed' ? 'holds' : 'other';
  const head = `<div class="test ${status}"${home === undefined ? ` id="${anchor}"` : ''} data-outcome="${h(t.outcome)}"><span class="badge">${h(t.outcome)}${t.expected ? ` (expected ${h(t.expected)})` : ''}${t.unexpected ? ', unexpected' : ''}</span> <span class="tid">${h(t.id)}</span> <span class="meta">${h(t.grade ?? 'spec')} grade, ${h(t.file)}</span>`;
  if (!bad) return `${head}</div>`;
  if (home !== undefined) return `${head} <a href="#${anchor}">its reason and transcript: under ${h(home)}</a></div>`;
  const why = [t.error, t.reason && t.reason !== t.error ? t.reason : undefined].filter((x): x is string => !!x).join('\n');
  return [
    head,
    why ? `<pre class="reason">${bounded(why)}</pre>` : '',
    ...(t.notes ?? []).map((n) => `<p class="note">note: ${h(n)}</p>`),
    ...(t.contract ?? []).map((n) => `<p class="note">byte contract: ${h(n)}</p>`),
    t.needs ? `<p class="note">needs: ${h(t.needs)}</p>` : '',
    t.unexpected ? `<p class="seed">seed <code>${h(String(p.header.seed))}</code> replays it: <code>${h(replayCommand(p.header))}</code></p>` : '',
    t.transcript ? `<details class="tr"${t.unexpected ? ' open' : ''}><summary>transcript: ${t.transcript.exchanges?.length ?? 0} exchange(s)</summary>${transcriptHtml(t.transcript)}</details>` : '',
    '</div>',
  ].join('');
}

/** Where each test's details are shown: its anchor, and the clause it is shown under (the first it names on the page). */
type Homes = ReadonlyMap<Judged, { readonly anchor: string; readonly clause: string }>;

function clauseHtml(c: Clause, tests: readonly Judged[], p: PageInput, classes: readonly string[], homes: Homes): string {
  const s = standingOf(tests);
  const open = s === 'fails' || s === 'expected' || s === 'short';
  const tally = counts(tests.reduce<Record<string, number>>((a, t) => ((a[t.outcome] = (a[t.outcome] ?? 0) + 1), a), {}));
  return [
    `<details class="clause ${s}" data-id="${h(c.id)}" data-standing="${s}" data-classes="${h(classes.join(' '))}"${open ? ' open' : ''}>`,
    `<summary><span class="badge">${h(STANDING_LABEL[s])}</span> <code class="cid">${h(c.id)}</code> <span class="level">${h(c.level)}</span> <span class="meta">${h(classes.join(' '))} · ${tests.length} test(s)${tests.length ? `: ${h(tally)}` : ''}</span></summary>`,
    `<blockquote>${h(c.quote)}</blockquote>`,
    c.reading ? `<p class="note">reading taken: ${h(c.reading)}</p>` : '',
    // the differential properties' shrunk cases that break this clause
    ...(open ? p.cases.filter((k) => k.case.clauses.includes(c.id)).map((k) => caseHtml(k, p.casesDir)) : []),
    ...tests.map((t) => {
      const home = homes.get(t)!;
      return testHtml(t, p, home.anchor, home.clause === c.id ? undefined : home.clause);
    }),
    '</details>',
  ].join('');
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1em 2em;color:#1b1f24;background:#fff}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .4em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa}tr.v-PASS td.v{background:#dafbe1}tr.v-FAIL td.v{background:#ffebe9;font-weight:bold}tr.v-PARTIAL td.v{background:#fff8c5}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}pre{white-space:pre-wrap;word-break:break-all;margin:.2em 0;background:#f6f8fa;padding:.3em .5em;border-radius:4px}
.cert{padding:.5em .8em;border-radius:6px;background:#f6f8fa}.cert.none{background:#ffebe9}
#summary{font-weight:bold;padding:.5em .8em;border-radius:6px;background:#f6f8fa;margin:.8em 0}#summary.fail{background:#ffebe9}#summary.pass{background:#dafbe1}
.filters{margin:.5em 0}.filters label{margin-right:1.5em}
.clause{border:1px solid #d0d7de;border-radius:6px;margin:.3em 0;padding:.2em .6em}.clause>summary{cursor:pointer}
.clause.fails{border-color:#cf222e;background:#fff5f5}.clause.expected,.clause.short{border-color:#bf8700}
.badge{display:inline-block;border-radius:10px;padding:0 .55em;font-size:12px;background:#eaeef2}
.fails>summary>.badge,.test.fails>.badge{background:#cf222e;color:#fff}.holds>summary>.badge,.test.holds>.badge{background:#1a7f37;color:#fff}
.expected>summary>.badge,.short>summary>.badge,.test.short>.badge{background:#bf8700;color:#fff}
blockquote{margin:.3em 0 .3em .5em;padding-left:.6em;border-left:3px solid #d0d7de;color:#57606a}
.test{margin:.3em 0 .3em 1em}.meta{color:#57606a;font-size:12px}.level{font-size:12px;font-weight:bold}
.exchange{border-left:3px solid #d0d7de;padding-left:.5em;margin:.4em 0}.op{font-weight:bold}.k{font-size:12px;color:#57606a}
.diag{background:#eef6ff}.cut{color:#9a6700;font-style:italic}.reason{background:#fff5f5}.case{border:1px dashed #bf8700;padding:.3em .6em;margin:.4em 0;border-radius:4px}
.section[hidden],.clause[hidden]{display:none}
`;

// Runs in the page: filters the clauses by class and outcome (also from the address: #class=…&outcome=…), hides
// sections left empty, and writes the summary of what is shown. It reads only the page's own elements and writes
// text (textContent), never markup.
const SCRIPT = `
(function () {
  var body = document.body;
  var byClass = document.getElementById('f-class');
  var byOutcome = document.getElementById('f-outcome');
  var summary = document.getElementById('summary');
  var labels = JSON.parse(document.getElementById('labels').textContent);
  function apply() {
    var k = byClass.value, o = byOutcome.value, shown = 0, tally = {}, failing = [];
    var clauses = document.querySelectorAll('.clause');
    for (var i = 0; i < clauses.length; i++) {
      var c = clauses[i], st = c.getAttribute('data-standing');
      var ok = (k === '' || (' ' + c.getAttribute('data-classes') + ' ').indexOf(' ' + k + ' ') >= 0) && (o === '' || o === st);
      c.hidden = !ok;
      if (!ok) continue;
      shown++;
      tally[st] = (tally[st] || 0) + 1;
      if (st === 'fails') failing.push(c.getAttribute('data-id'));
    }
    var sections = document.querySelectorAll('.section');
    for (var j = 0; j < sections.length; j++) sections[j].hidden = sections[j].querySelectorAll('.clause:not([hidden])').length === 0;
    var unexpected = Number(body.getAttribute('data-unexpected'));
    var complete = body.getAttribute('data-complete') === 'true';
    var parts = [];
    for (var s in labels) if (tally[s]) parts.push(tally[s] + ' ' + labels[s]);
    var verdict = unexpected === 0 && complete ? 'PASS: no unexpected results' : 'FAIL: ' + unexpected + ' unexpected result(s)' + (complete ? '' : ', the run did not complete');
    var text = verdict + '. ' + shown + ' of ' + clauses.length + ' clause(s) shown' + (parts.length ? ': ' + parts.join(', ') : '') + '.';
    if (failing.length) text += ' Not holding: ' + failing.join(', ') + '.';
    summary.textContent = text;
    summary.className = unexpected === 0 && complete ? 'pass' : 'fail';
    body.setAttribute('data-shown', String(shown));
  }
  // the filters travel in the address: #class=jcp:C3&outcome=fails opens the page filtered so
  function fromAddress() {
    var q = location.hash.replace(/^#/, '').split('&');
    for (var i = 0; i < q.length; i++) {
      var kv = q[i].split('='), v = decodeURIComponent(kv[1] || '');
      var sel = kv[0] === 'class' ? byClass : kv[0] === 'outcome' ? byOutcome : null;
      if (!sel) continue;
      for (var j = 0; j < sel.options.length; j++) if (sel.options[j].value === v) sel.value = v;
    }
  }
  function changed() {
    var parts = [];
    if (byClass.value) parts.push('class=' + encodeURIComponent(byClass.value));
    if (byOutcome.value) parts.push('outcome=' + encodeURIComponent(byOutcome.value));
    history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);
    apply();
  }
  byClass.addEventListener('change', changed);
  byOutcome.addEventListener('change', changed);
  fromAddress();
  apply();
})();
`;

/** The conformance page for one run. */
export function conformancePage(p: PageInput): string {
  const index = p.clauses ?? allClauses();
  const claimed = new Set(p.rows.filter((r) => r.claimed).map((r) => r.class));
  const inRows = new Set(p.rows.map((r) => r.class));
  // every clause of a claimed class in the run's rows, and every clause a test did not meet unexpectedly
  const ids = new Set<string>();
  for (const c of index.values()) if (c.classes.some((k) => claimed.has(k) && inRows.has(k))) ids.add(c.id);
  for (const t of p.judged) if (t.unexpected) for (const id of t.clauses) if (index.has(id)) ids.add(id);
  const testsOf = new Map<string, Judged[]>();
  const homes = new Map<Judged, { anchor: string; clause: string }>();
  p.judged.forEach((t, i) => {
    for (const id of t.clauses) {
      if (!ids.has(id)) continue;
      testsOf.set(id, [...(testsOf.get(id) ?? []), t]);
      if (!homes.has(t)) homes.set(t, { anchor: `t${i}`, clause: id });
    }
  });
  const sections = new Map<string, { title: string; clauses: Clause[] }>();
  for (const id of ids) {
    const c = index.get(id)!;
    const spec = id.slice(0, id.indexOf('/'));
    const key = sectionKey(spec, c.section);
    const s = sections.get(key) ?? { title: `${spec} §${c.section}`, clauses: [] };
    s.clauses.push(c);
    sections.set(key, s);
  }
  const ordered = [...sections.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const classFilter = [...new Set(p.rows.filter((r) => r.claimed).map((r) => r.class))];
  const { header, footer } = p;
  const result = footer.unexpected === 0 && footer.complete ? 'no unexpected results' : `${footer.unexpected} unexpected result(s)${footer.complete ? '' : '; the run did not complete'}`;
  const cert =
    'reasons' in p.certificate
      ? `<p class="cert none" id="certificate">No certificate was issued: ${h(p.certificate.reasons.join('; '))}.</p>`
      : `<p class="cert" id="certificate">Certificate <code>certificate.cose</code> signed by <code class="did">${h(p.certificate.signer)}</code>; ${h(p.certificate.algorithm)} of its bytes <code class="digest">${h(p.certificate.digest)}</code> (check it: <code>jcp-conformance verify-certificate certificate.cose</code>).</p>`;
  const labels = JSON.stringify(TALLY_LABEL).replace(/</g, '\\u003c');
  const scriptHash = createHash('sha256').update(SCRIPT).digest('base64');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>JCP conformance: ${h(header.testee.name)} ${h(header.testee.version)}</title>
<style>${CSS}</style></head>
<body data-unexpected="${footer.unexpected}" data-complete="${footer.complete}">
<h1>JCP conformance: ${h(header.testee.name)} ${h(header.testee.version)}</h1>
<p class="meta">Suite ${h(header.suite.name)} ${h(header.suite.version)}, protocol ${h(header.protocol)}, driver: ${h(header.testee.driver)}, seed ${h(String(header.seed))}${header.property_runs !== undefined ? `, ${header.property_runs} differential sequences per property` : ''}; classes requested: ${h(header.classes_requested === 'all' ? 'all' : header.classes_requested.join(' '))}; claimed: ${h(header.testee.claims.join(' ') || '(none)')}; started ${h(header.started_at)}, finished ${h(footer.finished_at)}.</p>
<p id="result">Result: <strong>${h(result)}</strong> — ${h(counts(footer.counts))}.</p>
${cert}
<div id="summary">The page's script has not run: the filters and this summary need it.</div>
<h2>Classes</h2>
<p class="meta">A class passes or fails on its spec grade alone (the spec's own normative words); the byte contract and SHOULD / MAY / open points are graded apart.</p>
<table id="classes"><thead><tr><th>class</th><th>verdict</th><th>spec grade (MUST)</th><th>byte contract</th><th>SHOULD / MAY / open point</th></tr></thead><tbody>
${p.rows.map((r) => `<tr class="v-${h(r.verdict.replace(/ /g, '-'))}" data-class="${h(r.class)}"><td>${h(classLabel(r))}</td><td class="v">${h(r.verdict)}</td><td>${h(counts(r.must))}</td><td>${h(contractCell(r))}${Object.keys(r.bytes).length ? ` (${h(counts(r.bytes))})` : ''}</td><td>${h(counts(r.should))}</td></tr>`).join('\n')}
</tbody></table>
${p.rows.some((r) => r.suite_defined) ? `<p class="meta">${h(SUITE_PROFILE_NOTE)}</p>` : ''}
<h2>Clauses</h2>
<div class="filters"><label>class <select id="f-class"><option value="">all claimed</option>${classFilter.map((k) => `<option value="${h(k)}">${h(k)}</option>`).join('')}</select></label>
<label>outcome <select id="f-outcome"><option value="">all</option>${(Object.keys(STANDING_LABEL) as Standing[]).map((s) => `<option value="${s}">${h(STANDING_LABEL[s])}</option>`).join('')}</select></label></div>
${ordered
  .map(
    ([, s]) =>
      `<section class="section"><h3>${h(s.title)}</h3>${s.clauses
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((c) => clauseHtml(c, testsOf.get(c.id) ?? [], p, c.classes.filter((k) => inRows.has(k)), homes))
        .join('\n')}</section>`,
  )
  .join('\n')}
<script type="application/json" id="labels">${labels}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
