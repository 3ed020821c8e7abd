// N×N interop, the harness's own tests: the in-process reference and the reference testee agree on
// every class; each planted-bug testee (mutation/testees/variant-main.ts) shows DIFFER on the class its bug breaks,
// of the kind it is (bytes it produces, or how it consumes), with the first differing case — and nowhere else; an
// implementation lacking an op reads n/a, one failing as a program reads DIFFER. One testee process per
// implementation serves every case of a run.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, REFERENCE_TESTEE as REFERENCE, variantTestee as variant } from './bundles.ts';
import { Implementation, TesteeFailure, type Transport } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import type { CborValue } from '../oracle.ts';
import { interop, interopCommand, parseInteropArgs, InteropUsageError } from '../interop/main.ts';
import { runInterop, type Cell, type ClassMatrix, type InteropReport } from '../interop/run.ts';
import { terminalReport } from '../interop/report.ts';
import { SCENARIOS } from '../interop/scenarios.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-interop-'));
beforeAll(() => Promise.all([buildBundle('reference'), buildBundle('variant')]), 60_000);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ALL = SCENARIOS.map((s) => s.cls);

const cell = (r: InteropReport, cls: string, producer: string, consumer: string): Cell => {
  const m = r.classes.find((c) => c.cls === cls);
  if (!m) throw new Error(`no class ${cls} in the report`);
  return m.cells.find((c) => c.producer === producer && c.consumer === consumer)!;
};
/** The classes with any DIFFER cell. */
const differing = (r: InteropReport): string[] => r.classes.filter((m: ClassMatrix) => m.cells.some((c) => c.status === 'DIFFER')).map((m) => m.cls);
const statuses = (r: InteropReport, cls: string) => Object.fromEntries(r.classes.find((m) => m.cls === cls)!.cells.map((c) => [`${c.producer}→${c.consumer}`, c.status]));

/** A transport to the in-process reference that answers `unimplemented` to `missing` ops and fails as a program on `broken`. */
function partialReference(missing: readonly string[], broken: readonly string[] = []): Transport {
  const t = inProcessTransport();
  return {
    description: 'in-process reference lacking some ops',
    hello: () => t.hello(),
    close: () => t.close(),
    async request(op, args) {
      if (broken.includes(op)) throw new TesteeFailure('crash', `planted crash on ${op}`);
      if (missing.includes(op)) return new Map<CborValue, CborValue>([['seq', 0], ['unimplemented', `${op} is not here`]]);
      return t.request(op, args);
    },
  };
}

describe('jcp-conformance interop', () => {
  it('the in-process reference and the reference testee agree on every class, case by case', async () => {
    const r = await interop(parseInteropArgs(['--reference', '--testee', REFERENCE]));
    expect(r.classes.map((m) => m.cls)).toEqual(ALL);
    expect(r.participants.map((p) => p.label)).toEqual(['ref', 'T1']);
    for (const m of r.classes) {
      expect(m.cells).toHaveLength(4);
      for (const c of m.cells) {
        // every case ran and agreed: none skipped as n/a, none differing
        expect([m.cls, c.producer, c.consumer, c.status, c.produced, c.counts.differ, c.counts.na]).toEqual([m.cls, c.producer, c.consumer, 'agree', 'same', 0, 0]);
        expect(c.counts.agree).toBe(SCENARIOS.find((s) => s.cls === m.cls)!.cases.length);
      }
    }
    expect(r.agree).toBe(true);
    expect(terminalReport(r)).toMatch(/all 9 classes agree$/);
  }, 150_000);

  it('debit-on-deny: every consumer-side class that reads spend after a denial DIFFERs, consumed, never its bytes (JSON report, exit 1)', async () => {
    const dir = join(TMP, 'debit');
    const code = await interopCommand(['--reference', '--testee', variant('debit-on-deny'), '--report', dir]);
    expect(code).toBe(1);
    expect(existsSync(join(dir, 'interop.md'))).toBe(true);
    const r = JSON.parse(readFileSync(join(dir, 'interop.json'), 'utf8')) as InteropReport;
    // the classes whose cases decide a denial and then read the spend
    expect(differing(r)).toEqual(['jcp:C1', 'jcp:C2', 'jcp:C3', 'jcp:C6', 'jcp:C7', 'jcp:C11']);
    expect(statuses(r, 'jcp:C3')).toEqual({ 'ref→ref': 'agree', 'ref→T1': 'DIFFER', 'T1→ref': 'agree', 'T1→T1': 'DIFFER' });
    const c = cell(r, 'jcp:C3', 'ref', 'T1');
    expect([c.produced, c.consumed]).toEqual(['same', 'differ']);
    // 600 allowed, then 600 denied: the reference still holds 600 spent, the testee says 1200
    expect(c.firstConsumed).toMatchObject({ name: 'spend to the ceiling and past it', step: 'spent root', reference: { ok: '600n' }, consumer: { ok: '1200n' } });
    expect(c.firstConsumed!.object!.hex).toMatch(/^a2656772616e74/); // the producer's signed grant
  }, 150_000);

  it('drop-inherited-caveat: C7 DIFFERs on the bytes it produces (the child without its parent caveat), and nothing else', async () => {
    const r = await interop(parseInteropArgs(['--reference', '--testee', variant('drop-inherited-caveat')]));
    expect(differing(r)).toEqual(['jcp:C7']);
    expect(statuses(r, 'jcp:C7')).toEqual({ 'ref→ref': 'agree', 'ref→T1': 'agree', 'T1→ref': 'DIFFER', 'T1→T1': 'DIFFER' });
    const c = cell(r, 'jcp:C7', 'T1', 'ref');
    expect([c.produced, c.consumed]).toEqual(['differ', 'agree']);
    // the first object that differs is the caveat-bearing root's child; its grant map has one entry fewer (0xa7 vs 0xa8)
    expect(c.firstProduced).toMatchObject({ object: 'cav-child', at_byte: 7 });
    expect(c.firstProduced!.producer.slice(4, 20)).toBe('a2656772616e74a7');
    expect(c.firstProduced!.reference.slice(4, 20)).toBe('a2656772616e74a8');
  }, 150_000);

  it('accept-non-canonical: C-neg DIFFERs as a consumer that repairs instead of refusing, and nothing else', async () => {
    const r = await interop(parseInteropArgs(['--reference', '--testee', variant('accept-non-canonical')]));
    expect(differing(r)).toEqual(['jcp:C-neg']);
    expect(statuses(r, 'jcp:C-neg')).toEqual({ 'ref→ref': 'agree', 'ref→T1': 'DIFFER', 'T1→ref': 'agree', 'T1→T1': 'DIFFER' });
    const c = cell(r, 'jcp:C-neg', 'ref', 'T1');
    expect(c.firstConsumed).toMatchObject({ name: 'a widened map head', step: 'cbor.check', reference: { refused: 'ERR_CBOR_NOT_SHORTEST' } });
    expect(String((c.firstConsumed!.consumer as { ok: string }).ok)).toMatch(/^hex:a2/); // re-encoded canonically instead of refused
    expect(c.firstConsumed!.object!.hex.slice(0, 4)).toBe('b802');
    // every altered encoding is accepted; the canonical control agrees
    expect(c.counts).toEqual({ agree: 1, differ: 6, na: 0 });
  }, 150_000);

  it('no-payload-hash: C5 and C23 DIFFER on the receipts it produces, and nothing else', async () => {
    const r = await interop(parseInteropArgs(['--reference', '--testee', variant('no-payload-hash')]));
    expect(differing(r)).toEqual(['jcp:C5', 'jcp:C23']);
    for (const cls of ['jcp:C5', 'jcp:C23']) {
      expect(statuses(r, cls)).toEqual({ 'ref→ref': 'agree', 'ref→T1': 'agree', 'T1→ref': 'DIFFER', 'T1→T1': 'DIFFER' });
      expect(cell(r, cls, 'T1', 'ref').produced).toBe('differ');
    }
    const first = cell(r, 'jcp:C5', 'T1', 'T1').firstProduced!;
    expect(first.object).toBe('allow-receipt');
    // the reference's core carries payload_hash ("payload_hash" in UTF-8), the testee's does not
    const payloadHash = Buffer.from('payload_hash').toString('hex');
    expect(first.reference).toContain(payloadHash);
    expect(first.producer).not.toContain(payloadHash);
  }, 150_000);

  it('an unimplemented op reads n/a for its producer row or consumer column; a program failure reads DIFFER', async () => {
    const odd = { label: 'odd', description: 'partial', impl: new Implementation(partialReference(['grant.shard', 'point.revoke'], ['receipt.verify'])) };
    const ref = { label: 'ref', description: 'in-process reference', impl: new Implementation(inProcessTransport()) };
    const r = await runInterop([ref, odd], { classes: ['jcp:C11', 'jcp:C6', 'jcp:C5', 'jcp:C3'] });
    // it cannot shard: its C11 row is n/a (slices are made in production); it verifies and decides others' slices
    expect(statuses(r, 'jcp:C11')).toEqual({ 'ref→ref': 'agree', 'ref→odd': 'agree', 'odd→ref': 'n/a', 'odd→odd': 'n/a' });
    // it cannot revoke at a point: its C6 column is n/a; what it produces (grants, revocations) others consume alike
    expect(statuses(r, 'jcp:C6')).toEqual({ 'ref→ref': 'agree', 'ref→odd': 'n/a', 'odd→ref': 'agree', 'odd→odd': 'n/a' });
    // it crashes verifying receipts: DIFFER, the step naming the failure
    expect(statuses(r, 'jcp:C5')).toEqual({ 'ref→ref': 'agree', 'ref→odd': 'DIFFER', 'odd→ref': 'agree', 'odd→odd': 'DIFFER' });
    expect(cell(r, 'jcp:C5', 'ref', 'odd').firstConsumed).toMatchObject({ step: 'receipt.verify', consumer: { failure: 'crash' } });
    expect(statuses(r, 'jcp:C3')).toEqual({ 'ref→ref': 'agree', 'ref→odd': 'agree', 'odd→ref': 'agree', 'odd→odd': 'agree' });
    expect(r.agree).toBe(false);
  });

  it('a participant that fails the handshake DIFFERs in its row and column, and the others still run', async () => {
    const dead: Transport = {
      description: 'dead',
      hello: () => Promise.reject(new TesteeFailure('crash', 'planted: exits before the handshake')),
      request: () => Promise.reject(new Error('never called')),
      close: async () => {},
    };
    const ref = { label: 'ref', description: 'in-process reference', impl: new Implementation(inProcessTransport()) };
    const r = await runInterop([ref, { label: 'dead', description: 'dead', impl: new Implementation(dead) }], { classes: ['jcp:C3'] });
    expect(r.participants[1]).toMatchObject({ label: 'dead', handshake: 'crash: planted: exits before the handshake' });
    expect(statuses(r, 'jcp:C3')).toEqual({ 'ref→ref': 'agree', 'ref→dead': 'DIFFER', 'dead→ref': 'DIFFER', 'dead→dead': 'DIFFER' });
    expect(cell(r, 'jcp:C3', 'ref', 'dead').failed).toBe('dead failed the handshake');
    expect(terminalReport(r)).toContain('DIFFER (no handshake)');
    expect(r.agree).toBe(false);
  });

  it('reads its command line: repeated --testee in order, --reference, classes; refuses what it cannot run', async () => {
    const a = parseInteropArgs(['--testee', 'a b', '--reference', '--testee=c', '--classes', 'C1,jcp:C-neg', '--timeout', '500']);
    expect(a.participants).toEqual(['a b', 'reference', 'c']);
    expect(a.classes).toEqual(['jcp:C1', 'jcp:C-neg']);
    expect(a.timeoutMs).toBe(500);
    expect(parseInteropArgs(['--testee', 'reference']).participants).toEqual(['reference']);
    for (const bad of [[], ['--classes', 'C1'], ['--reference', '--classes', 'C99'], ['--reference', '--bogus'], ['--testee'], ['--reference', '--timeout', '0']]) {
      expect(() => parseInteropArgs(bad), JSON.stringify(bad)).toThrow(InteropUsageError);
    }
    expect(await interopCommand(['--classes', 'C1'])).toBe(2);
  });
});
