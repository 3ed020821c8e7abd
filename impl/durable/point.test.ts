// impl/durable/point.ts: decisions recorded before they are returned, spend re-established by replay, replay equality
// with an uninterrupted gate, unresolved decisions surfaced, requests decided once across restarts, unrecordable
// requests denied unrecorded (jcp §4.11, §8.1, §11).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { bytesEqual } from '../bytes.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { contentId } from '../jcp/content-id.ts';
import { mintRevocation } from '../jcp/revocation.ts';
import { CHILD_ID, childGrant, nonce, otherSteward, ROOT_BUDGET_UJ, ROOT_ID, rootGrant, steward, streamCost, streamRequest, requestKey, alice, bob, TOOL } from './_fixtures.ts';
import { openDurablePoint, type DurablePointOptions, type RecordedDecision } from './point.ts';
import { anchorPath, readRecordFile, type RecordIo } from './record.ts';
import type { TornEntry } from './point.ts';

const dirs: string[] = [];
function tmpRecord(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-point-'));
  dirs.push(d);
  return path.join(d, 'decisions.rec');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const open = (p: string, over: Partial<DurablePointOptions> = {}) => openDurablePoint({ path: p, steward, holder: 'worker-1', ...over });
const encode = (d: RecordedDecision): Uint8Array => encodeCanonical({ verdict: d.verdict, receipt: d.receipt });

function recorded(d: ReturnType<ReturnType<typeof open>['decide']>): RecordedDecision {
  if (!d.recorded) throw new Error(`expected a recorded decision, got ${d.deny_reason}`);
  return d;
}

describe('the fixtures (./_fixtures.ts)', () => {
  it('the written-out ids are the ids of the grants and the tool they stand for', () => {
    expect(ROOT_ID).toBe(grantId(rootGrant.grant));
    expect(CHILD_ID).toBe(grantId(childGrant.grant));
    expect(TOOL).toBe(contentId({ resource: 'tool:search' }));
  });
});

describe('durable point', () => {
  it('records each decision before returning it, and a restart re-establishes the spend (ancestors included)', () => {
    const p = tmpRecord();
    const a = open(p);
    const d0 = recorded(a.decide(streamRequest(0, 300n)));
    const d1 = recorded(a.decide(streamRequest(1, 200n))); // chained: debits root and child
    expect([d0.verdict, d1.verdict]).toEqual(['allow', 'allow']);
    expect(readRecordFile(p).entries.length).toBe(2); // on disk when decide returned
    a.close();
    const b = open(p);
    expect(b.replayed).toBe(2);
    expect(b.spent(ROOT_ID)).toBe(500n);
    expect(b.spent(CHILD_ID)).toBe(200n);
    expect(b.remaining(rootGrant.grant)).toBe(ROOT_BUDGET_UJ - 500n);
    b.close();
  });

  it('a restart is not a fresh budget: the grant denies what the record already spent', () => {
    const p = tmpRecord();
    const a = open(p);
    expect(recorded(a.decide(streamRequest(0, ROOT_BUDGET_UJ - 10n))).verdict).toBe('allow');
    a.close();
    const b = open(p);
    const d = recorded(b.decide(streamRequest(2, 11n)));
    expect(d.verdict).toBe('deny');
    expect(d.deny_reason).toBe('budget-exceeded');
    expect(recorded(b.decide(streamRequest(4, 10n))).verdict).toBe('allow');
    b.close();
  });

  it('replay equality: with restarts anywhere, every receipt is byte-identical to an uninterrupted gate', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.boolean()), { minLength: 1, maxLength: 25 }), (steps) => {
        const p = tmpRecord();
        const mem = createEnforcementPoint({ steward });
        let dp = open(p);
        steps.forEach(([uj, restart], n) => {
          if (restart) {
            dp.close();
            dp = open(p);
          }
          const req = streamRequest(n, BigInt(uj));
          const want = mem.decide(req);
          const got = recorded(dp.decide(req));
          expect(bytesEqual(got.receipt, want.receipt)).toBe(true);
          expect(dp.spent(ROOT_ID)).toBe(mem.spent(ROOT_ID));
          expect(dp.spent(CHILD_ID)).toBe(mem.spent(CHILD_ID));
        });
        dp.close();
        const again = open(p);
        expect(again.spent(ROOT_ID)).toBe(mem.spent(ROOT_ID));
        expect(again.spent(CHILD_ID)).toBe(mem.spent(CHILD_ID));
        again.close();
      }),
      { seed: 0x4_11, numRuns: 40 },
    );
  });

  it('surfaces an allowed decision with no recorded outcome as unresolved, naming its holder, still debited', () => {
    const p = tmpRecord();
    const a = open(p, { holder: 'worker-7' });
    const done = recorded(a.decide(streamRequest(0, 100n)));
    const inflight = recorded(a.decide(streamRequest(2, 250n)));
    const denied = recorded(a.decide(streamRequest(4, ROOT_BUDGET_UJ)));
    a.complete(done.entryId, 'completed');
    expect(a.status(inflight.entryId)).toBe('in-flight');
    expect(a.status(denied.entryId)).toBe('denied');
    expect(a.unresolved()).toEqual([]);
    a.close(); // "crash" with the action of `inflight` still running
    const b = open(p, { holder: 'worker-8' });
    expect(b.unresolved()).toEqual([
      { entryId: inflight.entryId, holder: 'worker-7', grant_id: ROOT_ID, action: 'call', payload_hash: streamRequest(2, 0n).frame.payload_hash, cost_uj: 250n, receipt: inflight.receipt },
    ]);
    // never reported as completed or failed, energy stays debited
    expect(b.status(inflight.entryId)).toBe('unresolved');
    expect(b.status(done.entryId)).toBe('completed');
    expect(b.spent(ROOT_ID)).toBe(350n);
    // the operator settles it; only then is it resolved, and the record says so after a restart
    b.complete(inflight.entryId, 'failed', 'operator: the tool never received it');
    expect(b.unresolved()).toEqual([]);
    expect(b.spent(ROOT_ID)).toBe(350n);
    b.close();
    const c = open(p);
    expect(c.status(inflight.entryId)).toBe('failed');
    expect(c.unresolved()).toEqual([]);
    expect(codeOf(() => c.complete(inflight.entryId, 'completed'))).toBe('ERR_RECORD_NOT_PENDING');
    expect(codeOf(() => c.complete(denied.entryId, 'completed'))).toBe('ERR_RECORD_NOT_PENDING');
    expect(codeOf(() => c.complete(99, 'completed'))).toBe('ERR_RECORD_NOT_PENDING');
    c.close();
  });

  it('decides a keyed request once: a repeat, also after a restart, gets the first response bytes and no debit or entry', () => {
    const p = tmpRecord();
    const a = open(p);
    const first = a.decideOnce(requestKey(0), streamRequest(0, 120n), encode);
    if (first.status !== 'decided') throw new Error(`expected decided, got ${first.status}`);
    const again = a.decideOnce(requestKey(0), streamRequest(0, 120n), encode);
    if (again.status !== 'repeated') throw new Error(`expected repeated, got ${again.status}`);
    expect(bytesEqual(again.response, first.response)).toBe(true);
    expect(a.spent(ROOT_ID)).toBe(120n);
    a.close();
    const entries = readRecordFile(p).entries.length;
    const b = open(p);
    const after = b.decideOnce(requestKey(0), streamRequest(0, 120n), () => {
      throw new Error('a repeated request must not be encoded (decided) again');
    });
    if (after.status !== 'repeated') throw new Error(`expected repeated, got ${after.status}`);
    expect(bytesEqual(after.response, first.response)).toBe(true);
    expect(b.spent(ROOT_ID)).toBe(120n);
    b.close();
    expect(readRecordFile(p).entries.length).toBe(entries);
  });

  it('denies a request it cannot record (unrecorded), debits nothing, remembers nothing, and goes on', () => {
    const p = tmpRecord();
    let fail = false;
    const io: RecordIo = {
      writeSync: (fd, b, off, len, position) => {
        if (fail) throw new Error('ENOSPC: no space left on device');
        return fs.writeSync(fd, b, off, len, position);
      },
      fsyncSync: (fd) => fs.fsyncSync(fd),
    };
    const a = open(p, { io });
    recorded(a.decide(streamRequest(0, 100n)));
    fail = true;
    const d = a.decide(streamRequest(1, 100n));
    expect(d).toMatchObject({ recorded: false, verdict: 'deny', deny_reason: 'unrecorded', debited: [] });
    expect(a.spent(ROOT_ID)).toBe(100n);
    expect(a.spent(CHILD_ID)).toBe(0n);
    const once = a.decideOnce(requestKey(3), streamRequest(3, 50n), encode);
    expect(once.status).toBe('unrecorded');
    fail = false;
    // not remembered: the same key is decided now
    expect(a.decideOnce(requestKey(3), streamRequest(3, 50n), encode).status).toBe('decided');
    expect(a.spent(ROOT_ID)).toBe(150n);
    a.close();
    const b = open(p);
    expect(b.spent(ROOT_ID)).toBe(150n);
    expect(b.replayed).toBe(2);
    b.close();
  });

  it('refuses to replay a record under another steward or other trust roots (ERR_RECORD_REPLAY_MISMATCH), and releases it', () => {
    const p = tmpRecord();
    const a = open(p);
    a.decide(streamRequest(0, 100n));
    a.close();
    expect(codeOf(() => open(p, { steward: otherSteward }))).toBe('ERR_RECORD_REPLAY_MISMATCH');
    expect(codeOf(() => open(p, { trustRoots: { [TOOL]: [otherSteward.did] } }))).toBe('ERR_RECORD_REPLAY_MISMATCH');
    open(p).close();
  });

  it('records a revocation before honouring it, so it survives a restart', () => {
    const p = tmpRecord();
    const a = open(p);
    a.revoke(mintRevocation(alice, ROOT_ID, nonce('durable:rev')), rootGrant);
    expect(a.isRevoked(ROOT_ID)).toBe(true);
    a.close();
    const b = open(p);
    expect(b.isRevoked(ROOT_ID)).toBe(true);
    const d = recorded(b.decide(streamRequest(1, 10n)));
    expect(d.deny_reason).toBe('revoked');
    expect(codeOf(() => b.revoke(mintRevocation(alice, CHILD_ID, nonce('durable:rev2')), childGrant))).toBe('ERR_REVOCATION_UNAUTHORIZED');
    b.close();
    expect(codeOf(() => b.decide(streamRequest(2, 1n)))).toBe('ERR_RECORD_CLOSED');
  });

  it('a stream of decisions over the budget never spends past it, across restarts', () => {
    const p = tmpRecord();
    let dp = open(p);
    for (let n = 0; n < 120; n++) {
      if (n % 17 === 0) {
        dp.close();
        dp = open(p);
      }
      dp.decide(streamRequest(n, streamCost(n)));
      expect(dp.spent(ROOT_ID) <= ROOT_BUDGET_UJ).toBe(true);
    }
    expect(dp.remaining(rootGrant.grant) < 400n).toBe(true); // the stream did reach the ceiling
    dp.close();
  });

  it('records a priced, labelled request whole, so its money and tainted spend survive a restart (jcp §4.8, §4.10)', () => {
    const p = tmpRecord();
    const priced = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1000n, budget_funds: { currency: 'EUR', minor: 100n }, nonce: nonce('durable:priced') });
    const id = grantId(priced.grant);
    const req = (n: number) => ({
      frame: { kind: 'tool-call', trust: 'control', grant_id: id, action: 'call', resource: TOOL, payload_hash: contentId({ payload: `priced:${n}` }) } as const,
      chain: [priced],
      caller: bob.did,
      cost: { uj: 10n, provenance: 'HwShunt' as const, coverage: 'Partial' as const },
      now_s: 5n,
      cost_funds: { currency: 'EUR', minor: 40n },
      label: { integrity: 'untrusted' as const, origins: ['web'], readers: 'all' as const },
    });
    const mem = createEnforcementPoint({ steward });
    const a = open(p);
    for (const n of [0, 1]) expect(bytesEqual(recorded(a.decide(req(n))).receipt, mem.decide(req(n)).receipt)).toBe(true);
    a.close();
    const b = open(p);
    expect(b.replayed).toBe(2);
    // the third 40-minor request would pass 100 minor: denied after the restart exactly as without one
    const want = mem.decide(req(2));
    expect(want.deny_reason).toBe('funds-exceeded');
    const got = recorded(b.decide(req(2)));
    expect(got.deny_reason).toBe(want.deny_reason);
    expect(bytesEqual(got.receipt, want.receipt)).toBe(true);
    b.close();
  });

  it('reports a torn decision cut away on open with its request key, and re-establishes only the acknowledged spend', () => {
    const p = tmpRecord();
    const a = open(p);
    expect(a.decideOnce(requestKey(0), streamRequest(0, 100n), encode).status).toBe('decided');
    a.close();
    const acknowledged = fs.readFileSync(p);
    const acknowledgedAnchor = fs.readFileSync(anchorPath(p));
    const b = open(p);
    expect(b.decideOnce(requestKey(2), streamRequest(2, 200n), encode).status).toBe('decided');
    b.close();
    // what a crash in the middle of the second append leaves: part of its entry, the anchor not yet moved on
    const whole = fs.readFileSync(p);
    for (const [k, key] of [[180, requestKey(2)], [40, undefined]] as const) {
      fs.writeFileSync(p, whole.subarray(0, acknowledged.length + k));
      fs.writeFileSync(anchorPath(p), acknowledgedAnchor);
      const seen: TornEntry[] = [];
      const c = open(p, { onTornTail: (t) => seen.push(t) });
      expect(seen.length).toBe(1);
      expect(c.tornTail).toEqual(seen[0]);
      expect(c.tornTail).toMatchObject({ offset: acknowledged.length, length: k });
      if (key) {
        expect(c.tornTail!.requestKey).toEqual(key);
        expect(c.tornTail!.summary).toContain('request key');
      } else expect(c.tornTail!.summary).toContain('cannot be decoded');
      expect(c.spent(ROOT_ID)).toBe(100n);
      expect(c.replayed).toBe(1);
      c.close();
    }
  });

  it('refuses a record that lost its content (ERR_RECORD_CORRUPT) unless opened as a new record', () => {
    const p = tmpRecord();
    const a = open(p);
    recorded(a.decide(streamRequest(0, 100n)));
    a.close();
    fs.writeFileSync(p, new Uint8Array(0));
    expect(codeOf(() => open(p))).toBe('ERR_RECORD_CORRUPT');
    const b = open(p, { newRecord: true });
    expect(b.replayed).toBe(0);
    expect(b.spent(ROOT_ID)).toBe(0n);
    b.close();
    expect(codeOf(() => open(path.dirname(p)))).toBe('ERR_RECORD_IO');
  });

  it('refuses junk with a typed code and records nothing for it', () => {
    const p = tmpRecord();
    const a = open(p);
    const junk: unknown[] = [null, undefined, 0, 'x', {}, { frame: {}, chain: [] }, { ...streamRequest(0, 1n), cost: { uj: -1n, provenance: 'HwShunt' } }, { ...streamRequest(0, 1n), now_s: 1 }];
    for (const j of junk) {
      expect(codeOf(() => a.decide(j as never)), String(j)).toMatch(/^ERR_/);
      expect(codeOf(() => a.decideOnce(requestKey(9), j as never, encode)), String(j)).toMatch(/^ERR_/);
    }
    expect(codeOf(() => a.decideOnce(new Uint8Array(31), streamRequest(0, 1n), encode))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => a.decideOnce('k' as never, streamRequest(0, 1n), encode))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => a.decideOnce(requestKey(9), streamRequest(0, 1n), 'f' as never))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => a.decideOnce(requestKey(9), streamRequest(0, 1n), (() => 'not bytes') as never))).toBe('ERR_BAD_ARGUMENT');
    const d = recorded(a.decide(streamRequest(0, 1n)));
    expect(codeOf(() => a.complete(d.entryId, 'done' as never))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => a.complete(d.entryId, 'completed', 7 as never))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => a.revoke(null as never, rootGrant))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => a.status(-1))).toBe('ERR_BAD_ARGUMENT');
    expect(a.spent(ROOT_ID)).toBe(1n); // the refused encodings debited nothing
    a.close();
    expect(readRecordFile(p).entries.length).toBe(1);
    for (const bad of [{ path: '' }, { path: 3 }, { holder: '' }, { holder: null }]) {
      expect(codeOf(() => openDurablePoint({ path: p, steward, holder: 'h', ...(bad as object) } as never))).toBe('ERR_BAD_ARGUMENT');
    }
  });
});
