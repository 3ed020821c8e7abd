// action.yml, the composite GitHub Action adopters certify with (README "GitHub Action"): read strictly
// (yaml-subset.ts, action-runner.ts), its static properties — every third-party action pinned by commit SHA, the
// adopter's Node left alone unless node-version is given, each output wired to the step that writes it, an artifact
// name that is no constant — and its bash steps run as the runner would (action-runner.ts) against the reference
// testee: once passing, once with an expectation that matches nothing, once on a Node too old, once with no testee.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { actionOutputs, outputLines } from '../report/action-outputs.ts';
import { cliPath } from './cli.ts';
import { developmentKey, sealCertificate, verifyCertificate, type CertificatePayload } from '../report/certificate.ts';
import { evaluate, stepRuns, type Contexts } from './action-expressions.ts';
import { compositeAction, runAction, type ActionRun, type ActionStep, type RunnerSetting } from './action-runner.ts';
import { parseYamlSubset, YamlSubsetError, type YamlValue } from './yaml-subset.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const ACTION = compositeAction(parseYamlSubset(TEXT));
const TMP = mkdtempSync(join(tmpdir(), 'jcp-action-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** The outputs the README documents and adopters read. */
const OUTPUTS = ['verdict', 'verdicts', 'unexpected', 'report', 'certificate', 'artifact-name'];
const REFERENCE_TESTEE = `node ${cliPath()} reference-testee`;
/** Every string value of the parsed file (its comments left out). */
const values = (v: YamlValue): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(values) : Object.values(v).flatMap(values));
/** Every `steps.<id>.outputs.<name>` the action reads. */
const STEP_OUTPUT_REFS = values(parseYamlSubset(TEXT)).flatMap((v) => [...v.matchAll(/steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)].map((m) => ({ id: m[1]!, name: m[2]! })));

/** A job's environment as the runner starts it: this process's, less this repository's test-run and CI variables. */
function jobEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(JCP_|VITEST|FC_SEED$|TEST$|NODE_OPTIONS$|npm_|GITHUB_|RUNNER_)/.test(k)) env[k] = v;
  return env;
}

/** The bash step that runs `npm ci`: left out of every run here, as it would replace the node_modules this suite runs on. */
const isInstall = (s: ActionStep): boolean => s.run !== undefined && /\bnpm ci\b/.test(s.run);

let workspaces = 0;
/** Runs the action in a fresh workspace (GITHUB_ACTION_PATH: this checkout). */
function run(inputs: Record<string, string>, over: Partial<RunnerSetting> = {}, files: Record<string, string> = {}): ActionRun & { workspace: string } {
  const workspace = join(TMP, `w${++workspaces}`, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(workspace, f), text);
  // running npm ci here would replace the node_modules this very test run is using: the one bash step left out
  expect(ACTION.steps.filter(isInstall)).toHaveLength(1);
  const r = runAction(ACTION, { inputs, actionPath: ROOT, workspace, job: 'conformance', jobIndex: 3, runAttempt: 2, env: jobEnv(), leaveOut: isInstall, timeoutMs: 450_000, ...over });
  // the install step is the only bash step not run; every other one either ran or its if: kept it out
  const leftOut = r.steps.filter((s) => s.status === 'left-out');
  expect(leftOut.map((s) => s.step.name)).toEqual(leftOut.length ? ['install the suite'] : []);
  return { ...r, workspace };
}

const log = (r: ActionRun): string => r.steps.map((s) => `--- ${s.step.name ?? s.step.uses} (${s.status} ${s.exitCode ?? ''})\n${(s.stdout ?? '').slice(-2500)}${(s.stderr ?? '').slice(-1500)}`).join('\n');
const usesStep = (r: ActionRun, action: string) => r.steps.find((s) => s.step.uses?.startsWith(`${action}@`))!;

describe('action.yml, read', () => {
  it('is in the YAML subset, and the reader refuses what a full YAML parser would read otherwise', () => {
    expect(ACTION.steps.length).toBeGreaterThan(0);
    for (const bad of ['a: [1, 2]\n', 'a: "x"\n', 'a: b: c\n', 'a: >\n  x\n', 'a: &x y\n', 'a:\n\tb: c\n', 'a: 1\na: 2\n', 'a:\n']) {
      expect(() => parseYamlSubset(bad), JSON.stringify(bad)).toThrow(YamlSubsetError);
    }
    const doc = parseYamlSubset('k: v # note\nl:\n  - m: |\n      one\n\n      two\n    n: x@y # v1\n  - z\n') as { [k: string]: YamlValue };
    expect(doc).toEqual({ k: 'v', l: [{ m: 'one\n\ntwo\n', n: 'x@y' }, 'z'] });
  });

  it('pins every action it uses by a full commit SHA, with the release in a comment', () => {
    const uses = ACTION.steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses.map((u) => u.split('@')[0])).toEqual(['actions/setup-node', 'actions/cache', 'actions/upload-artifact']);
    for (const u of uses) {
      expect(u).toMatch(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+@[0-9a-f]{40}$/);
      // the comment is what a reader and Dependabot read the version from
      const lines = TEXT.split('\n').filter((l) => l.includes(`uses: ${u}`));
      expect(lines, u).toHaveLength(1);
      expect(lines[0], u).toMatch(/ # v\d+\.\d+\.\d+$/);
    }
  });

  it('runs actions/setup-node only when node-version is given, with that version', () => {
    const setup = ACTION.steps.filter((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup).toHaveLength(1);
    expect(setup[0]!.with).toEqual({ 'node-version': '${{ inputs.node-version }}' });
    const ctx = (v: string): Contexts => ({ inputs: { 'node-version': v }, steps: {}, strategy: { 'job-index': 0 }, github: {}, stepIds: new Set(), failed: false });
    expect(stepRuns(setup[0]!.if, ctx(''))).toBe(false);
    expect(stepRuns(setup[0]!.if, ctx('22'))).toBe(true);
    expect(ACTION.inputs['node-version']?.default).toBeUndefined();
  });

  it('declares each output as one output of the certify step', () => {
    expect(Object.keys(ACTION.outputs)).toEqual(OUTPUTS);
    const ids = new Set(ACTION.steps.flatMap((s) => (s.id && s.run ? [s.id] : [])));
    for (const [k, o] of Object.entries(ACTION.outputs)) {
      const m = /^\$\{\{ steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) \}\}$/.exec(o.value);
      expect(m, k).not.toBeNull();
      expect(ids.has(m![1]!), `${k}: a bash step with the id ${m![1]}`).toBe(true);
      expect(m![2], k).toBe(k);
      expect(o.description.length, k).toBeGreaterThan(10);
    }
  });

  it('names the uploaded artifact by an expression, never a constant', () => {
    const upload = ACTION.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with?.['name']).toMatch(/^\$\{\{ steps\.certify\.outputs\.artifact-name \}\}$/);
    expect(upload.if).toMatch(/always\(\)/);
  });

  it('the stand-in runner refuses an expression it does not know', () => {
    const c: Contexts = { inputs: { a: 'x' }, steps: {}, strategy: { 'job-index': 0 }, github: {}, stepIds: new Set(['s']), failed: false };
    for (const e of ['inputs.b', 'steps.t.outputs.x', 'matrix.os', 'hashFiles(\'x\')', 'failure()', 'runner.os', "inputs.a == 1", 'inputs.a |']) expect(() => evaluate(e, c), e).toThrow();
    expect(evaluate("inputs.a != '' && 'y'", c)).toBe('y');
    expect(evaluate("inputs.a == 'X'", c)).toBe(true);
  });

  it('the README example passes only inputs the action declares and reads only outputs it declares', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## GitHub Action\n'), readme.indexOf('\n## ', readme.indexOf('\n## GitHub Action\n') + 5));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const steps = (parseYamlSubset(example!) as { jobs: { conformance: { steps: Array<Record<string, YamlValue>> } } }).jobs.conformance.steps;
    const ours = steps.find((s) => typeof s['uses'] === 'string' && s['uses'].includes('/jcp-conformance@'))!;
    for (const k of Object.keys(ours['with'] as object)) expect(Object.keys(ACTION.inputs), k).toContain(k);
    for (const m of example!.matchAll(/steps\.jcp\.outputs\.([A-Za-z0-9_-]+)/g)) expect(OUTPUTS).toContain(m[1]);
  });
});

describe('the outputs (harness/report/action-outputs.ts)', () => {
  /** A report folder holding a record whose footer counts `unexpected`, and a certificate with these verdicts (none: no certificate). */
  function folder(unexpected: number | undefined, verdicts: Record<string, string> | undefined): string {
    const dir = mkdtempSync(join(TMP, 'outputs-'));
    if (unexpected !== undefined) writeFileSync(join(dir, 'record.jsonl'), `{"type":"header"}\n${JSON.stringify({ type: 'footer', counts: {}, unexpected, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: '', complete: true })}\n`);
    if (verdicts) {
      const key = developmentKey();
      const p = { certificate: 'jcp-conformance-certificate/1', suite: 'jcp-conformance 0', protocol: 'p', testee: { name: 't', version: '1', driver: 'd', claims: [] }, digests: {}, vector_packs: [], record_digest: '', seed: 0, verdicts, counts: {}, unexpected: unexpected ?? 0, issued_s: 0, signer: key.did } satisfies CertificatePayload;
      writeFileSync(join(dir, 'certificate.cose'), sealCertificate(p, key));
    }
    return dir;
  }

  it('the verdict: PASS, PARTIAL or FAIL from the exit status, the footer and the certificate', () => {
    const cases: Array<[number, number | undefined, Record<string, string> | undefined, string]> = [
      [0, 0, { 'jcp:C1': 'PASS', 'jcp:C2': 'NOT CLAIMED' }, 'PASS'],
      [0, 0, { 'jcp:C1': 'PASS', 'jcp:C7': 'PARTIAL' }, 'PARTIAL'],
      [0, 0, { 'jcp:C8': 'NEEDS ENDPOINT' }, 'PARTIAL'],
      [0, 0, { 'jcp:C2': 'NOT CLAIMED' }, 'PARTIAL'],
      [0, 0, { 'jcp:C1': 'FAIL' }, 'FAIL'],
      [1, 1, { 'jcp:C1': 'PASS' }, 'FAIL'],
      [0, 1, { 'jcp:C1': 'PASS' }, 'FAIL'],
      [1, 1, undefined, 'FAIL'],
      [2, undefined, undefined, 'FAIL'],
    ];
    for (const [status, unexpected, verdicts, want] of cases) {
      const o = actionOutputs(folder(unexpected, verdicts), status);
      const what = JSON.stringify([status, unexpected, verdicts]);
      expect(o.verdict, what).toBe(want);
      expect(o.unexpected, what).toBe(unexpected === undefined ? '' : String(unexpected));
      expect(o.verdicts, what).toBe(JSON.stringify(verdicts ?? {}));
      expect(o.certificate === '', what).toBe(verdicts === undefined);
      expect(outputLines(o).split('\n').filter(Boolean).map((l) => l.split('=')[0]), what).toEqual(['verdict', 'verdicts', 'unexpected', 'report', 'certificate']);
    }
  });
});

describe('action.yml, run', () => {
  it('a Node older than 20.6 fails the first step with one error line, and nothing after it runs', () => {
    const bin = join(TMP, 'old-node');
    mkdirSync(bin, { recursive: true });
    // a node that says it is 18 and, like an old one, cannot pass the check's script
    writeFileSync(join(bin, 'node'), '#!/bin/sh\nif [ "$1" = --version ]; then echo v18.20.4; exit 0; fi\nexit 1\n');
    chmodSync(join(bin, 'node'), 0o755);
    const env = jobEnv();
    const r = run({ testee: REFERENCE_TESTEE, classes: 'C10' }, { env: { ...env, PATH: `${bin}${delimiter}${env['PATH'] ?? ''}` } });
    expect(r.exitCode, log(r)).toBe(1);
    const check = r.steps.find((s) => s.step.id === 'npm')!;
    expect(check.stdout!.trim().split('\n')).toEqual([expect.stringMatching(/^::error::jcp-conformance needs Node\.js 20\.6 or newer on PATH, found v18\.20\.4: /)]);
    expect(r.steps.filter((s) => s.status === 'ran').map((s) => s.step.id)).toEqual(['npm']);
    expect(usesStep(r, 'actions/upload-artifact').status).toBe('skipped-if');
  });

  it('names the artifact per job, matrix entry and attempt, even when certify cannot start (exit 2)', () => {
    const a = run({});
    expect(a.exitCode, log(a)).toBe(2);
    expect(a.outputs['verdict']).toBe('FAIL');
    expect(a.outputs['artifact-name']).toBe('jcp-conformance-conformance-3-2');
    expect(a.outputs['report']).toBe(join(a.workspace, 'jcp-conformance-report'));
    expect(usesStep(a, 'actions/upload-artifact').with).toEqual({ name: 'jcp-conformance-conformance-3-2', path: a.outputs['report'], 'if-no-files-found': 'warn' });
    // another matrix entry, another attempt, a name of one's own
    expect(run({}, { jobIndex: 4 }).outputs['artifact-name']).toBe('jcp-conformance-conformance-4-2');
    expect(run({}, { runAttempt: 3 }).outputs['artifact-name']).toBe('jcp-conformance-conformance-3-3');
    expect(run({ 'artifact-name': 'mine', report: join(TMP, 'abs-report') }).outputs).toMatchObject({ 'artifact-name': 'mine', report: join(TMP, 'abs-report') });
  });

  it('certifies the reference testee: exit 0, PASS, 0 unexpected, the summary and a certificate', () => {
    const r = run({ testee: REFERENCE_TESTEE, classes: 'C10' });
    expect(r.exitCode, log(r)).toBe(0);
    const report = join(r.workspace, 'jcp-conformance-report');
    expect(r.outputs).toEqual({
      verdict: 'PASS',
      verdicts: '{"jcp:C10":"PASS"}',
      unexpected: '0',
      report,
      certificate: join(report, 'certificate.cose'),
      'artifact-name': 'jcp-conformance-conformance-3-2',
    });
    expect(verifyCertificate(new Uint8Array(readFileSync(join(report, 'certificate.cose')))).verdicts).toEqual({ 'jcp:C10': 'PASS' });
    expect(r.summary).toBe(readFileSync(join(report, 'summary.md'), 'utf8'));
    expect(r.summary).toContain('jcp:C10');
    // every step output the action reads was written by that step in this run
    expect(STEP_OUTPUT_REFS.length).toBeGreaterThan(OUTPUTS.length);
    for (const { id, name } of STEP_OUTPUT_REFS) {
      const step = r.steps.find((s) => s.step.id === id);
      expect(step?.outputs?.[name], `steps.${id}.outputs.${name}`).toMatch(/./);
    }
    const lock = createHash('sha256').update(readFileSync(join(ROOT, 'package-lock.json'))).digest('hex');
    expect(usesStep(r, 'actions/cache').with).toMatchObject({ key: `jcp-conformance-npm-Linux-${lock}`, 'restore-keys': 'jcp-conformance-npm-Linux-' });
    expect(isAbsolute(usesStep(r, 'actions/cache').with!['path']!)).toBe(true);
    expect(usesStep(r, 'actions/setup-node').status).toBe('skipped-if');
    expect(usesStep(r, 'actions/upload-artifact').with).toMatchObject({ name: 'jcp-conformance-conformance-3-2', path: report });
  }, 480_000);

  it('an expectation entry matching nothing: exit 1, verdict FAIL and unexpected > 0 in the outputs', () => {
    const expectations = { expectations: [{ test: 'jcp:C10|jcp/0#no-such-clause|a test that does not exist', reason: 'proves a stale entry fails the action' }] };
    const r = run({ testee: REFERENCE_TESTEE, classes: 'C10', expectations: 'expectations.json' }, {}, { 'expectations.json': JSON.stringify(expectations) });
    expect(r.exitCode, log(r)).toBe(1);
    expect(r.outputs['verdict']).toBe('FAIL');
    expect(Number(r.outputs['unexpected'])).toBeGreaterThan(0);
    expect(r.summary).toContain('jcp:C10');
    expect(usesStep(r, 'actions/upload-artifact').status).toBe('uses');
  }, 480_000);
});
