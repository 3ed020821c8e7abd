// A testee passes exactly the classes it claims: one implementing only C1, C2, C3, C6, C7, C10 and C-neg (the reference
// with every other operation answered `unimplemented`, harness/self/testees/subset-main.ts) PASSes those classes and
// exits 0, the others reading not claimed, not applicable or not tested; `--classes` names only what was asked for.
// Beside them, the grading rules of harness/PROTOCOL.md "Grades" and "Claims" on hand-made records.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalVectorsDigest } from '../external-vectors.ts';
import { cliPath } from './cli.ts';
import { handshakeProblems } from '../implementation.ts';
import { blake3, toHex } from '../oracle.ts';
import { classesRequiring, OP_CLASSES } from '../protocol/claims.ts';
import { OPS } from '../protocol/schema.ts';
import { OPEN_POINTS } from '../protocol/readings.ts';
import { verifyCertificate } from '../report/certificate.ts';
import { judge } from '../report/expectations.ts';
import { classRows } from '../report/record.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { buildBundle, bundlePath } from './bundles.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-claims-'));
const SUBSET = bundlePath('subset-main');
const CLAIMED = ['jcp:C1', 'jcp:C2', 'jcp:C3', 'jcp:C6', 'jcp:C7', 'jcp:C10', 'jcp:C-neg'];

beforeAll(async () => {
  await buildBundle('subset-main');
}, 60_000);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function certify(report: string, ...args: string[]) {
  const env = { ...process.env };
  for (const k of ['JCP_TESTEE', 'JCP_CLASSES', 'JCP_RECORD']) delete env[k];
  const r = spawnSync(process.execPath, [cliPath(), 'certify', ...args, '--report', report], { cwd: ROOT, env, encoding: 'utf8', timeout: 400_000 });
  if (r.error) throw r.error;
  return r;
}

describe('a testee passes exactly the classes it claims', () => {
  it('one implementing only C1, C2, C3, C6, C7, C10 and C-neg PASSes them, exit 0; the rest read not claimed or not applicable', () => {
    const report = join(TMP, 'subset');
    const r = certify(report, '--testee', `node ${SUBSET} ${CLAIMED.join(',')}`);
    expect(r.status, r.stdout.slice(-3000)).toBe(0);
    const cert = verifyCertificate(new Uint8Array(readFileSync(join(report, 'certificate.cose'))));
    for (const k of CLAIMED) expect(cert.verdicts[k], k).toBe('PASS');
    const others = Object.entries(cert.verdicts).filter(([k]) => !CLAIMED.includes(k));
    expect(others.length).toBeGreaterThan(10);
    expect(others.filter(([, v]) => v !== 'NOT CLAIMED' && v !== 'NOT APPLICABLE')).toEqual([]);
    const lines = readFileSync(join(report, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; outcome?: string; reason?: string });
    const na = lines.filter((l) => l.type === 'test' && l.outcome === 'not applicable');
    // each not-applicable result says which operation and why
    expect(na.length).toBeGreaterThan(0);
    expect(na.filter((l) => !/unimplemented|needs|endpoint/.test(l.reason ?? ''))).toEqual([]);
    expect(lines.filter((l) => l.type === 'test' && l.outcome === 'unimplemented')).toEqual([]);
  }, 420_000);

  it('an operation a claimed class requires, answered unimplemented, fails that class', () => {
    // C11 (sharded budgets) claimed with grant.shard implemented: PASS
    const honest = certify(join(TMP, 'claim-c11'), '--testee', `node ${SUBSET} C1,C11`, '--classes', 'C11');
    expect(honest.status, honest.stdout.slice(-2000)).toBe(0);
    // claimed while grant.shard answers `unimplemented`: not a pass, and not "not applicable" either
    const report = join(TMP, 'overclaim-c11');
    const over = certify(report, '--testee', `node ${SUBSET} C1,C11 grant.shard`, '--classes', 'C11');
    expect(over.status, over.stdout.slice(-2000)).toBe(1);
    const lines = readFileSync(join(report, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; classes?: string[]; outcome?: string });
    const c11 = lines.filter((l) => l.type === 'test' && l.classes?.includes('jcp:C11'));
    expect(c11.length).toBeGreaterThan(0);
    expect(c11.some((l) => l.outcome === 'unimplemented')).toBe(true);
    expect(readFileSync(join(report, 'summary.md'), 'utf8')).toMatch(/\| jcp:C11 \| FAIL \|/);
  }, 420_000);

  it('certify --classes C10 signs a certificate naming C10 alone', () => {
    const report = join(TMP, 'c10');
    const r = certify(report, '--classes', 'C10');
    expect(r.status, r.stdout.slice(-2000)).toBe(0);
    const cert = verifyCertificate(new Uint8Array(readFileSync(join(report, 'certificate.cose'))));
    expect(Object.keys(cert.verdicts)).toEqual(['jcp:C10']);
    expect(cert.verdicts['jcp:C10']).toBe('PASS');
    // it binds what the run replayed: every published pack by its digest, the shipped third-party vectors, completeness
    const packs = readdirSync(join(ROOT, 'vectors', 'conformance', 'v1')).filter((f) => f.endsWith('.json')).sort();
    expect(cert.vector_packs.map((v) => v.name)).toEqual(packs.map((f) => `conformance/v1/${f}`));
    for (const v of cert.vector_packs) expect(v.digest, v.name).toBe(toHex(blake3(readFileSync(join(ROOT, 'vectors', v.name)))));
    expect(cert.digests['vectors/external/SHA256SUMS']).toBe(externalVectorsDigest());
    expect(cert.complete).toBe('yes');
  }, 420_000);
});

const line = (over: Partial<TestLine>): TestLine => ({ type: 'test', id: `jcp:C1|x|${over.title ?? 't'}`, file: 'f', title: 't', clauses: ['jcp/7#expired'], classes: ['jcp:C1'], level: 'MUST', grade: 'spec', outcome: 'passed', ...over });

describe('grading (harness/PROTOCOL.md "Grades")', () => {
  it('a byte-contract failure counts against a testee only when it claims the byte contract', () => {
    const lines = [line({ title: 'a' }), line({ title: 'b', grade: 'bytes', outcome: 'failed' })];
    expect(judge(lines, undefined, { byteContract: false }).judged.map((t) => t.unexpected)).toEqual([false, false]);
    expect(judge(lines, undefined, { byteContract: true }).judged.map((t) => t.unexpected)).toEqual([false, true]);
    const rows = classRows(judge(lines, undefined, { byteContract: false }).judged, ['jcp:C1'], ['jcp:C1']);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ verdict: 'PASS', contract_differences: 1 });
  });

  it('an open-point or SHOULD failure is never unexpected; a spec failure, and a program fault of any grade, always is', () => {
    const lines = [line({ title: 'o', grade: 'open', outcome: 'failed' }), line({ title: 's', outcome: 'failed' }), line({ title: 'c', grade: 'open', outcome: 'crash' })];
    expect(judge(lines, undefined, { byteContract: false }).judged.map((t) => t.unexpected)).toEqual([false, true, true]);
    expect(classRows(judge([lines[0]!, line({})]).judged, ['jcp:C1'])[0]!.verdict).toBe('PASS');
  });

  it('not applicable and acceptable are neutral; a class none of whose tests passed is NOT APPLICABLE, never PASS', () => {
    const lines = [line({ title: 'n', outcome: 'not applicable' }), line({ title: 'a', outcome: 'acceptable' })];
    const { judged } = judge(lines);
    expect(judged.some((t) => t.unexpected)).toBe(false);
    expect(classRows(judged, ['jcp:C1'], ['jcp:C1'])[0]!.verdict).toBe('NOT APPLICABLE');
    expect(classRows(judge([...lines, line({})]).judged, ['jcp:C1'], ['jcp:C1'])[0]!.verdict).toBe('PASS');
  });

  it('noted byte-contract differences of a spec test are counted in its class, not against its verdict', () => {
    const { judged } = judge([line({ contract: ['refused with ERR_MINE; the suite\'s code for this refusal is ERR_GRANT_MALFORMED'] })], undefined, { byteContract: false });
    expect(classRows(judged, ['jcp:C1'], ['jcp:C1'])[0]).toMatchObject({ verdict: 'PASS', contract_differences: 1 });
  });
});

describe('the claims table and the handshake (harness/PROTOCOL.md "Claims", "Declared readings")', () => {
  it('every operation of the protocol has an entry in the claims table, and every entry is an operation', () => {
    const ops = Object.keys(OPS);
    const table = Object.keys(OP_CLASSES);
    expect(table.filter((o) => !ops.includes(o))).toEqual([]);
    // an operation not listed by name is classed by its prefix (energy, sense, tlog, jc and each suite-defined
    // profile's namespace): none is left belonging to no class or profile
    expect(ops.filter((o) => !table.includes(o) && classesRequiring(o).length === 0)).toEqual([]);
    expect(classesRequiring('grant.shard')).toEqual(['jcp:C11']);
    // the energy judgements serve jcp §5 (C9) and the profiles that ask the same of their figures
    expect(classesRequiring('energy.ladder')).toEqual(['jcp:C9', 'jcp:P-TRACE', 'sense:P-ENERGY', 'jouleclaw:P-ENERGY']);
    expect(classesRequiring('value.check')).toEqual(['jouleclaw:P-VALUE']);
    expect(classesRequiring('jc.run.open')).toEqual(['jouleclaw:P-HANDOFF']);
  });

  it('unknown features, open points and readings are refused at the handshake; the defined ones are taken', () => {
    const base = { name: 't', version: '1', protocol: 'jcp-testee/1', claims: [] };
    expect(handshakeProblems({ ...base, features: ['byte-contract'], readings: { 'expiry-boundary': 'valid-at-expiry' } })).toEqual([]);
    expect(handshakeProblems({ ...base, features: ['caveats'] })).toEqual([expect.stringMatching(/unknown feature "caveats"/)]);
    expect(handshakeProblems({ ...base, features: [], readings: { 'expiry-edge': 'x' } })).toEqual([expect.stringMatching(/unknown open point "expiry-edge"/)]);
    expect(handshakeProblems({ ...base, features: [], readings: { 'expiry-boundary': 'whenever' } })).toEqual([expect.stringMatching(/not a reading of jcp\/7#open-expiry-boundary/)]);
    for (const p of Object.values(OPEN_POINTS)) expect(p.readings[p.reference], p.clause).toBeDefined();
  });
});
