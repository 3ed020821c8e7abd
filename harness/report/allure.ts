// Allure results, a view derived from the primary record (harness/report/record.ts), written through Allure's own
// library (allure-js-commons: its ReporterRuntime and FileSystemWriter), and rendered into a single-file Allure
// report by `jcp-conformance report --html` (harness/commands/report.ts).
//
// Per test: its real start and stop; its status with the outcome and the reason in one line and the whole error as
// the trace; labels — the spec as epic and parentSuite, every class of the test as a feature and as a suite (a test
// of several classes appears under each), every clause as a story, the first clause as subSuite, the level as
// severity (MUST, MUST NOT, REQUIRED: critical; SHOULD, MAY, an open point: normal); the seed and the testee as
// parameters; and as attachments the transcript of a test that did not pass (all its exchanges as JSON, and their
// request and response hex and diagnostic notation as text), the shrunk case file a differential property wrote, and
// the reason of an unimplemented, not-applicable or acceptable test.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ContentType, LabelName, Stage, Status, type Label } from 'allure-js-commons';
import { FileSystemWriter, ReporterRuntime } from 'allure-js-commons/sdk/reporter';
import { NEUTRAL, PROGRAM_FAULTS, type Judged } from './expectations.ts';
import type { Header } from './record.ts';
import { isSuiteProfile } from '../../spec-map/index.ts';

/** What of the record's header the results carry: when the run started, its seed and the testee. */
export type AllureRun = Pick<Header, 'started_at' | 'seed' | 'testee'>;

/** The names of the files this writer puts in a results folder (and removes from it before writing again). */
export const ALLURE_WRITTEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(result\.json|container\.json|attachment(\.[a-z0-9]+)?)|environment\.properties)$/;

/** The clause levels (spec-map/clauses, the specs' RFC 2119 words) shown as critical. */
const CRITICAL = new Set(['MUST', 'MUST NOT', 'REQUIRED']);

/** The spec a clause id or class id belongs to: `jcp/4.2#…` and `jcp:C3` are jcp's. */
export function specOf(id: string): string {
  return id.split(/[/:]/)[0] ?? id;
}

/**
 * A class's suite name, sorting in the class's own order under a text sort (the report's default here): `jcp:C3`
 * is `jcp:C03`, before `jcp:C10`. The feature label keeps the class id as the spec writes it.
 */
export function suiteOf(klass: string): string {
  return klass.replace(/:C(\d+)$/, (_m, n: string) => `:C${n.padStart(2, '0')}`);
}

/** The Allure status of a judged result: a result that fails the run is failed (broken for a program fault). */
export function statusOf(t: Pick<Judged, 'outcome' | 'unexpected'>): Status {
  if (t.unexpected) return PROGRAM_FAULTS.has(t.outcome) ? Status.BROKEN : Status.FAILED;
  return t.outcome === 'passed' ? Status.PASSED : Status.SKIPPED;
}

/** The outcome and why, on one line: what the report's message box shows. */
export function messageOf(t: Judged): string {
  const head = `${t.outcome}${t.expected ? ` (expected ${t.expected})` : ''}${t.unexpected && t.outcome === 'passed' ? ': an expected failure now passes, remove its expectation entry' : ''}`;
  const why = (t.reason ?? t.error ?? '').split('\n').find((l) => l.trim().length > 0)?.trim();
  return why ? `${head}: ${why}` : head;
}

/** When a test started, in ms since the epoch, where its line says (an ISO time or ms). */
function lineStart(t: Judged): number | undefined {
  const s = (t as { readonly started_at?: unknown }).started_at;
  const ms = typeof s === 'number' ? s : typeof s === 'string' ? Date.parse(s) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Each test's start and stop. A line that names its start keeps it; otherwise the tests of one file, which run one
 * after another in record order, are laid end to end from the run's start (files run side by side).
 */
export function timings(judged: readonly Judged[], runStart: number): Array<{ start: number; stop: number }> {
  const next = new Map<string, number>();
  return judged.map((t) => {
    const duration = Math.max(0, t.duration_ms ?? 0);
    const start = lineStart(t) ?? next.get(t.file) ?? runStart;
    next.set(t.file, start + duration);
    return { start, stop: start + duration };
  });
}

/**
 * The most characters one transcript attachment holds. A transcript over it is shown by its first and last
 * exchanges (each field cut to an eighth of it): a single-file report embeds every attachment, and stays one a
 * browser opens. The record keeps the transcript whole.
 */
export const ATTACHMENT_LIMIT = 256 * 1024;

/** An exchange with its number among all the test's exchanges (counting those the driver left out). */
interface Numbered {
  readonly n: number;
  readonly x: Readonly<Record<string, unknown>>;
}

const cutField = (v: unknown, max: number): unknown => (typeof v === 'string' && v.length > max ? `${v.slice(0, max)}… (${v.length - max} more characters in record.jsonl)` : v);
const cutFields = (x: Readonly<Record<string, unknown>>, max: number) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, cutField(v, max)]));

/**
 * A transcript (harness/report/record-reporter.ts TestLine) in parts: its exchanges numbered (the driver keeps the
 * first `left_out.after` and the last ones of a long test), and the rest: the evidence of a testee that failed as
 * a program. A transcript without an `exchanges` list is one exchange.
 */
function partsOf(transcript: object): { list: Numbered[]; rest: Record<string, unknown> } {
  const { exchanges, left_out, ...rest } = transcript as { exchanges?: unknown; left_out?: { count?: unknown; after?: unknown } } & Record<string, unknown>;
  if (!Array.isArray(exchanges)) return { list: [{ n: 1, x: transcript as Record<string, unknown> }], rest: {} };
  const gap = left_out && Number.isInteger(left_out.after) && Number.isInteger(left_out.count) ? { at: left_out.after as number, count: left_out.count as number } : undefined;
  const kept = exchanges.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object');
  return { list: kept.map((x, i) => ({ n: i + 1 + (gap && i >= gap.at ? gap.count : 0), x })), rest };
}

/** The exchanges within `limit` characters: all of them when they fit, else the first and the last that do. */
function bounded(list: readonly Numbered[], limit: number): { list: Numbered[]; cut: boolean } {
  const size = (e: Numbered) => JSON.stringify(e.x).length;
  if (list.reduce((a, e) => a + size(e), 0) <= limit) return { list: [...list], cut: false };
  const each = list.map((e) => ({ n: e.n, x: cutFields(e.x, limit / 8) }));
  const head: Numbered[] = [];
  const tail: Numbered[] = [];
  let used = 0;
  for (const e of each) if ((used += size(e)) <= limit / 2) head.push(e); else break;
  used = 0;
  for (let i = each.length - 1; i >= head.length; i--) if ((used += size(each[i]!)) <= limit / 2) tail.unshift(each[i]!); else break;
  return { list: [...head, ...tail], cut: true };
}

/** One exchange, or one piece of evidence, as text: its op, then each other field on a line of its own. */
function block(title: string, x: Readonly<Record<string, unknown>>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2)).replace(/\n/g, '\n    ');
  const fields = Object.entries(x).filter(([k]) => k !== 'op');
  return [`${title}${typeof x['op'] === 'string' ? `: ${x['op']}` : ''}`, ...fields.map(([k, v]) => `  ${k}: ${text(v)}`)].join('\n');
}

/**
 * A test's transcript as text: each exchange in order with its request and response as hex and in diagnostic
 * notation, a line where exchanges were left out (by the driver's bound, or this view's ATTACHMENT_LIMIT), and the
 * evidence of a testee that failed as a program (the request it gave no valid answer to, what it sent, its stderr).
 */
export function exchangesText(transcript: unknown, limit = ATTACHMENT_LIMIT): string {
  if (!transcript || typeof transcript !== 'object') return '';
  const { list, rest } = partsOf(transcript);
  const shown = bounded(list, limit).list;
  const parts: string[] = [];
  let last = 0;
  for (const e of shown) {
    if (e.n > last + 1) parts.push(`… ${e.n - last - 1} exchange(s) left out here (record.jsonl holds what the driver kept)`);
    parts.push(block(`exchange ${e.n}`, e.x));
    last = e.n;
  }
  const total = list.at(-1)?.n ?? 0;
  if (total > last) parts.push(`… ${total - last} exchange(s) left out here (record.jsonl holds what the driver kept)`);
  if (Object.keys(rest).length) parts.push(block('the failure (no valid answer)', cutFields(rest, limit / 8)));
  return parts.join('\n\n');
}

/** The transcript attachment's JSON: the transcript as the record holds it, or within `limit` its first and last exchanges, each numbered. */
export function transcriptJson(transcript: unknown, limit = ATTACHMENT_LIMIT): string {
  const whole = JSON.stringify(transcript, null, 2);
  if (whole.length <= limit || !transcript || typeof transcript !== 'object') return whole;
  const { list, rest } = partsOf(transcript);
  const shown = bounded(list, limit).list;
  return JSON.stringify({ cut: `${shown.length} of ${list.at(-1)?.n ?? 0} exchanges, numbered, each field within ${limit / 8} characters: record.jsonl holds what the driver kept`, exchanges: shown.map((e) => ({ number: e.n, ...e.x })), ...cutFields(rest, limit / 8) }, null, 2);
}

/**
 * The case files a differential property wrote for this test: the paths its error names (`case: <path>`), and in
 * `casesDir` the files named `<property>-<seed>-*.json` (harness/property/case.ts writeCase) for its property.
 */
export function caseFilesOf(t: Judged, casesDir: string | undefined, seed: number | undefined): string[] {
  const named = [...(t.error ?? '').matchAll(/^\s*case: (.+\.json)\s*$/gm)].map((m) => m[1]!);
  const property = /^differential\/([\w-]+):/.exec(t.title)?.[1];
  const found = property && seed !== undefined && casesDir && existsSync(casesDir) ? readdirSync(casesDir).filter((f) => f.startsWith(`${property}-${seed}-`) && f.endsWith('.json')).map((f) => join(casesDir, f)) : [];
  const byName = new Map<string, string>();
  for (const p of [...named, ...found]) if (existsSync(p) && statSync(p).isFile() && !byName.has(basename(p))) byName.set(basename(p), p);
  return [...byName.values()];
}

/** The record's header, read from `<report>/record.jsonl` beside the results folder, when it is there. */
function headerBeside(dir: string): AllureRun | undefined {
  const path = join(dirname(dir), 'record.jsonl');
  if (!existsSync(path)) return undefined;
  const first = readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
  try {
    const h = JSON.parse(first) as Partial<Header>;
    return h.type === 'header' && typeof h.started_at === 'string' && typeof h.seed === 'number' && h.testee ? (h as Header) : undefined;
  } catch {
    return undefined;
  }
}

function labelsOf(t: Judged): Label[] {
  const specs = [...new Set([...t.classes, ...t.clauses].map(specOf))];
  const classes = t.classes.length ? t.classes : ['unclassed'];
  return [
    ...specs.map((s) => ({ name: LabelName.EPIC, value: s })),
    ...[...new Set(t.classes.length ? t.classes.map(specOf) : specs)].map((s) => ({ name: LabelName.PARENT_SUITE, value: s })),
    ...classes.map((k) => ({ name: LabelName.FEATURE, value: k })),
    ...classes.map((k) => ({ name: LabelName.SUITE, value: suiteOf(k) })),
    ...(t.clauses[0] ? [{ name: LabelName.SUB_SUITE, value: t.clauses[0] }] : []),
    ...t.clauses.map((c) => ({ name: LabelName.STORY, value: c })),
    { name: LabelName.SEVERITY, value: CRITICAL.has(t.level) ? 'critical' : 'normal' },
    { name: LabelName.TAG, value: `${t.grade ?? 'spec'} grade` },
    { name: LabelName.TAG, value: t.level },
    // a profile this suite defines (spec-map/profiles.json) is no class of the spec: said on every test of one
    ...(t.classes.some(isSuiteProfile) ? [{ name: LabelName.TAG, value: 'suite-defined profile (not a class of the spec)' }] : []),
  ];
}

function descriptionOf(t: Judged): string {
  return [
    `**${t.outcome}**${t.expected ? ` (expected ${t.expected})` : ''}, ${t.grade ?? 'spec'} grade, ${t.level}.`,
    '',
    `Classes: ${t.classes.join(', ') || '—'}. Clauses: ${t.clauses.map((c) => `\`${c}\``).join(', ')}. File: \`${t.file}\`.`,
    ...(t.reason ? ['', `Why: ${t.reason}`] : []),
    ...(t.contract?.length ? ['', 'Byte-contract differences:', ...t.contract.map((c) => `- ${c}`)] : []),
    ...(t.notes?.length ? ['', 'Sub-checks left out:', ...t.notes.map((n) => `- ${n}`)] : []),
  ].join('\n');
}

/**
 * Writes the Allure results of `judged` into `dir` (one `<uuid>-result.json` per test, its attachments beside it,
 * and environment.properties), removing what an earlier call wrote there. `uuidOf` names each test's result (and its
 * history id, from `history:<id>`). `run` is the record's header; without it, the header of `<dir>/../record.jsonl`.
 * The case files are looked for in `<dir>/../cases` too.
 */
export function writeAllure(dir: string, judged: readonly Judged[], uuidOf: (id: string) => string, run?: AllureRun): void {
  if (existsSync(dir)) for (const f of readdirSync(dir)) if (ALLURE_WRITTEN.test(f)) rmSync(join(dir, f));
  const header = run ?? headerBeside(dir);
  const runStart = header ? Date.parse(header.started_at) : Date.now() - judged.reduce((a, t) => a + (t.duration_ms ?? 0), 0);
  const casesDir = join(dirname(dir), 'cases');
  const runtime = new ReporterRuntime({ writer: new FileSystemWriter({ resultsDir: dir }) });
  const times = timings(judged, runStart);
  const testee = header ? `${header.testee.name} ${header.testee.version}`.trim() : undefined;
  for (const [i, t] of judged.entries()) {
    const { start, stop } = times[i]!;
    const status = statusOf(t);
    const handle = runtime.startTest({
      uuid: uuidOf(t.id),
      historyId: uuidOf(`history:${t.id}`),
      testCaseId: uuidOf(`case:${t.id}`),
      name: t.title,
      fullName: t.id,
      start,
      labels: labelsOf(t),
      parameters: [...(header ? [{ name: 'seed', value: String(header.seed) }] : []), ...(testee ? [{ name: 'testee', value: testee }] : [])],
      description: descriptionOf(t),
    });
    runtime.updateTest(handle, (r) => {
      r.status = status;
      r.stage = Stage.FINISHED;
      r.statusDetails = { message: messageOf(t), trace: [t.error ?? t.reason ?? '', ...(t.contract ?? []), ...(t.notes ?? [])].filter(Boolean).join('\n') };
    });
    const attach = (name: string, body: string, contentType: ContentType) => runtime.writeAttachment(handle, undefined, name, Buffer.from(body), { contentType });
    if (t.transcript && status !== Status.PASSED) {
      attach('transcript.json', transcriptJson(t.transcript), ContentType.JSON);
      attach('exchanges (request and response: hex, diagnostic notation)', exchangesText(t.transcript), ContentType.TEXT);
      const stderr = (t.transcript as { readonly stderr?: unknown }).stderr;
      if (typeof stderr === 'string' && stderr.length) attach('testee stderr', String(cutField(stderr, ATTACHMENT_LIMIT)), ContentType.TEXT);
    }
    for (const path of caseFilesOf(t, casesDir, header?.seed)) runtime.writeAttachment(handle, undefined, `case ${basename(path)}`, path, { contentType: ContentType.JSON });
    if (t.reason && (NEUTRAL.has(t.outcome) || t.outcome === 'unimplemented')) attach(`why ${t.outcome}`, `${t.reason}${t.needs ? `\nneeds: ${t.needs}` : ''}\n`, ContentType.TEXT);
    runtime.stopTest(handle, { stop });
    runtime.writeTest(handle);
  }
  if (header) {
    runtime.environmentInfo = { testee: testee ?? '', driver: header.testee.driver, seed: String(header.seed), started_at: header.started_at };
    runtime.writeEnvironmentInfo();
  }
}
