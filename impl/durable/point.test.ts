// impl/durable/point.ts: decisions recorded before they are returned, spend re-established by replay, replay equality
// with an uninterrupted gate, unresolved decisions surfaced, requests decided once across restarts, unrecordable
// requests denied unrecorded (jcp §4.11, §8.1, §11).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, messageOf, thrown } from '../_test-support.ts';
import { bytesEqual, toHex } from '../bytes.ts';
import { encodeCanonical, type CborValue } from '../cbor/index.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { contentId } from '../jcp/content-id.ts';
import { mintRevocation } from '../jcp/revocation.ts';
import { CHILD_ID, childGrant, nonce, otherSteward, ROOT_BUDGET_UJ, ROOT_ID, rootGrant, steward, streamCost, streamRequest, requestKey, alice, bob, TOOL } from './_fixtures.ts';
import { entryToCbor, parseEntry, type RecordEntry } from './entry.ts';
import { describeTornTail, openDurablePoint, type DurablePointOptions, type RecordedDecision } from './point.ts';
import { anchorPath, openRecord, readRecordFile, type RecordIo, type TornTail } from './record.ts';
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

/** An append that fails while `fail.now` is set (ENOSPC), as a full disk would. */
function failingIo(): { io: RecordIo; fail: { now: boolean } } {
  const fail = { now: false };
  const io: RecordIo = {
    writeSync: (fd, b, off, len, position) => {
      if (fail.now) throw new Error('ENOSPC: no space left on device');
      return fs.writeSync(fd, b, off, len, position);
    },
    fsyncSync: (fd) => fs.fsyncSync(fd),
  };
  return { io, fail };
}

describe('durable point: what it hands out and keeps', () => {
  it('a failed append leaves every earlier decision where it stood: in-flight stays in-flight, not unresolved (jcp §4.11)', () => {
    const p = tmpRecord();
    const { io, fail } = failingIo();
    const a = open(p, { io });
    const live = recorded(a.decide(streamRequest(0, 100n)));
    const done = recorded(a.decide(streamRequest(2, 100n)));
    a.complete(done.entryId, 'completed');
    const denied = recorded(a.decide(streamRequest(4, ROOT_BUDGET_UJ)));
    fail.now = true;
    expect(a.decide(streamRequest(6, 10n)).recorded).toBe(false);
    fail.now = false;
    expect([a.status(live.entryId), a.status(done.entryId), a.status(denied.entryId)]).toEqual(['in-flight', 'completed', 'denied']);
    expect(a.unresolved()).toEqual([]);
    expect(a.spent(ROOT_ID)).toBe(200n);
    a.complete(live.entryId, 'failed');
    expect(a.status(live.entryId)).toBe('failed');
    a.close();
  });

  it('a point closed while the response is encoded denies the request unrecorded and records nothing (jcp §11)', () => {
    const p = tmpRecord();
    const a = open(p);
    const r = a.decideOnce(requestKey(0), streamRequest(0, 10n), (d) => {
      a.close();
      return encode(d);
    });
    expect(r).toMatchObject({ status: 'unrecorded', deny_reason: 'unrecorded' });
    if (r.status !== 'unrecorded') throw new Error(`expected unrecorded, got ${r.status}`);
    expect(r.why).toMatch(/^ERR_RECORD_CLOSED: /);
    expect(readRecordFile(p).entries.length).toBe(0);
  });

  it('a response handed out is a copy: changing it changes nothing a repeat gets (jcp §11 "that same response")', () => {
    const p = tmpRecord();
    const a = open(p);
    const first = a.decideOnce(requestKey(0), streamRequest(0, 10n), encode);
    if (first.status !== 'decided') throw new Error(`expected decided, got ${first.status}`);
    const want = first.response.slice();
    first.response.fill(0xff);
    const again = a.decideOnce(requestKey(0), streamRequest(0, 10n), encode);
    if (again.status !== 'repeated') throw new Error(`expected repeated, got ${again.status}`);
    expect(again.response).toEqual(want);
    again.response.fill(0xee);
    const third = a.decideOnce(requestKey(0), streamRequest(0, 10n), encode);
    expect(third).toMatchObject({ status: 'repeated', response: want, entryId: first.decision.entryId });
    a.close();
  });

  it('keeps the request key as given: a caller reusing its key buffer does not undo "decided once" (jcp §11)', () => {
    const p = tmpRecord();
    const { io, fail } = failingIo();
    const a = open(p, { io });
    const key = requestKey(0);
    expect(a.decideOnce(key, streamRequest(0, 10n), encode).status).toBe('decided');
    key.fill(0);
    // a failed append rebuilds the gate and the remembered keys from what was recorded
    fail.now = true;
    expect(a.decide(streamRequest(2, 10n)).recorded).toBe(false);
    fail.now = false;
    expect(a.decideOnce(requestKey(0), streamRequest(0, 10n), encode).status).toBe('repeated');
    expect(a.spent(ROOT_ID)).toBe(10n);
    a.close();
  });

  it('records an outcome with its note, and with none when none is given (jcp §4.11: the operator settles it)', () => {
    const p = tmpRecord();
    const a = open(p);
    const d0 = recorded(a.decide(streamRequest(0, 10n)));
    const d1 = recorded(a.decide(streamRequest(2, 10n)));
    a.complete(d0.entryId, 'failed', 'operator: the tool never received it');
    a.complete(d1.entryId, 'completed');
    a.close();
    const entries = readRecordFile(p).entries;
    expect(parseEntry(entries[2]!, 2)).toEqual({ kind: 'outcome', entry: 0, outcome: 'failed', note: 'operator: the tool never received it' });
    expect(parseEntry(entries[3]!, 3)).toEqual({ kind: 'outcome', entry: 1, outcome: 'completed' });
  });

  it("verifies a revocation's authority with the backend it is given: one that refuses every signature refuses it (jcp §4.3)", () => {
    const p = tmpRecord();
    const base = defaultEd25519();
    const refusing: Ed25519 = { name: base.name, publicKeyFromSeed: (s) => base.publicKeyFromSeed(s), sign: (s, m) => base.sign(s, m), verify: () => false };
    const a = open(p, { backend: refusing });
    const e = thrown(() => a.revoke(mintRevocation(alice, ROOT_ID, nonce('durable:rev')), rootGrant));
    expect(e.code).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(e.detail).toEqual({ fault: 'signature' });
    expect(a.isRevoked(ROOT_ID)).toBe(false);
    a.close();
    expect(readRecordFile(p).entries.length).toBe(0);
  });
});

describe('durable point: each refusal names what is wrong', () => {
  it('names the argument a call refuses (ERR_BAD_ARGUMENT), and the closed point by its path (ERR_RECORD_CLOSED)', () => {
    const p = tmpRecord();
    const a = open(p);
    expect(messageOf(() => a.decideOnce(new Uint8Array(33), streamRequest(0, 1n), encode))).toBe('ERR_BAD_ARGUMENT: a request key is 32 bytes');
    expect(messageOf(() => a.decideOnce(requestKey(9), streamRequest(0, 1n), 'f' as never))).toBe('ERR_BAD_ARGUMENT: decideOnce needs an encodeResponse function');
    expect(messageOf(() => a.decideOnce(requestKey(9), streamRequest(0, 1n), (() => 'not bytes') as never))).toBe('ERR_BAD_ARGUMENT: encodeResponse must return bytes');
    const d = recorded(a.decide(streamRequest(0, 1n)));
    expect(messageOf(() => a.status(d.entryId + 1))).toBe(`ERR_BAD_ARGUMENT: entry #${d.entryId + 1} is not a recorded decision`);
    expect(messageOf(() => a.complete(d.entryId, 'done' as never))).toBe('ERR_BAD_ARGUMENT: an outcome is completed or failed');
    expect(messageOf(() => a.complete(d.entryId, 'completed', 7 as never))).toBe('ERR_BAD_ARGUMENT: a note is text');
    a.close();
    expect(messageOf(() => a.decide(streamRequest(2, 1n)))).toBe(`ERR_RECORD_CLOSED: the durable point on ${p} is closed`);
  });

  it('refuses an outcome for anything but a pending allowed decision, naming the entry and where it stands (ERR_RECORD_NOT_PENDING)', () => {
    const p = tmpRecord();
    const a = open(p);
    const done = recorded(a.decide(streamRequest(0, 10n)));
    a.complete(done.entryId, 'completed');
    const denied = recorded(a.decide(streamRequest(2, ROOT_BUDGET_UJ)));
    for (const [id, stands] of [[done.entryId, 'completed'], [denied.entryId, 'denied'], [1, 'not a recorded decision'], [99, 'not a recorded decision']] as const) {
      const e = thrown(() => a.complete(id, 'failed'));
      expect(e.code).toBe('ERR_RECORD_NOT_PENDING');
      expect(e.message).toBe(`ERR_RECORD_NOT_PENDING: entry #${id} is ${stands}, not an allowed decision awaiting its outcome`);
      expect(e.detail).toEqual({ entry: id });
    }
    a.close();
  });

  it('refuses a revocation or a grant that is not one before anything is recorded (ERR_BAD_ARGUMENT)', () => {
    const p = tmpRecord();
    const a = open(p);
    const rev = mintRevocation(alice, ROOT_ID, nonce('durable:rev'));
    const cases: readonly (readonly [unknown, unknown])[] = [
      [rev, 'grant'],
      [rev, undefined],
      [rev, null],
      [rev, { signature: new Uint8Array(64) }],
      ['revocation', rootGrant],
      [undefined, rootGrant],
      [null, rootGrant],
      [{ signature: new Uint8Array(64) }, rootGrant],
    ];
    for (const [r, g] of cases) {
      expect(messageOf(() => a.revoke(r as never, g as never)), `${String(r)}, ${String(g)}`).toBe('ERR_BAD_ARGUMENT: revoke needs a signed revocation and the signed grant it names');
    }
    expect(a.isRevoked(ROOT_ID)).toBe(false);
    a.close();
    expect(readRecordFile(p).entries.length).toBe(0);
  });

  it('refuses a revocation whose grant replay would not read back (a 63-byte signature) before recording it, so the record still reopens', () => {
    const p = tmpRecord();
    const a = open(p);
    const rev = mintRevocation(alice, ROOT_ID, nonce('durable:rev'));
    const short = { grant: rootGrant.grant, signature: rootGrant.signature.slice(0, 63) };
    const e = thrown(() => a.revoke(rev, short));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toMatch(/^ERR_BAD_ARGUMENT: revoke: the revocation or its grant would not be read back from the record \(ERR_/);
    expect(a.isRevoked(ROOT_ID)).toBe(false);
    a.close();
    expect(readRecordFile(p).entries.length).toBe(0);
    // the record reopens, and the same revocation with the whole grant is honoured
    const b = open(p);
    b.revoke(rev, rootGrant);
    expect(b.isRevoked(ROOT_ID)).toBe(true);
    b.close();
  });

  it('refuses an encodeResponse that returns no bytes before anything is recorded or debited (jcp §11: a response is remembered whole)', () => {
    const p = tmpRecord();
    const a = open(p);
    for (const bad of [() => undefined, () => 'text', () => [1, 2]]) {
      expect(messageOf(() => a.decideOnce(requestKey(1), streamRequest(1, 10n), bad as never))).toBe('ERR_BAD_ARGUMENT: encodeResponse must return bytes');
    }
    expect(a.remaining(rootGrant.grant)).toBe(ROOT_BUDGET_UJ);
    a.close();
    expect(readRecordFile(p).entries.length).toBe(0);
  });
});

describe('durable point: replay refuses a record the gate would not have written (jcp §4.11, §11)', () => {
  /** Appends `entries` to the record at `p` (created when absent), whole and acknowledged, as a writer of its own would. */
  function appendTo(p: string, entries: readonly RecordEntry[]): void {
    const r = openRecord({ path: p, holder: 'forger' });
    for (const e of entries) r.append(entryToCbor(e));
    r.close();
  }
  const forged = (over: object = {}): RecordEntry => ({ kind: 'decision', holder: 'worker-1', request: streamRequest(0, 100n), verdict: 'allow', receipt: new Uint8Array(80).fill(7), ...over }) as RecordEntry;
  /** The record `entries` make after what the point at `p` decided, reopened: the mismatch it is refused with. */
  function refusal(p: string, entries: readonly RecordEntry[]) {
    appendTo(p, entries);
    const e = thrown(() => open(p));
    expect(e.code).toBe('ERR_RECORD_REPLAY_MISMATCH');
    return e;
  }

  it('a request key recorded without its response, or a response without its key', () => {
    for (const over of [{ key: requestKey(0) }, { response: Uint8Array.of(1) }]) {
      const e = refusal(tmpRecord(), [forged(over)]);
      expect(e.message).toBe('ERR_RECORD_REPLAY_MISMATCH: replaying record entry #0: a request key is recorded without its response, or a response without its key');
      expect(e.detail).toEqual({ entry: 0 });
    }
  });

  it('a verdict the gate does not reach, and a receipt the gate does not seal', () => {
    const p = tmpRecord();
    const a = open(p);
    recorded(a.decide(streamRequest(2, 10n)));
    a.close();
    const e = refusal(p, [forged({ verdict: 'deny' })]);
    expect(e.message).toBe('ERR_RECORD_REPLAY_MISMATCH: replaying record entry #1: the gate now decides allow, the record says deny');
    expect(e.detail).toEqual({ entry: 1 });
    const q = tmpRecord();
    expect(refusal(q, [forged()]).message).toBe('ERR_RECORD_REPLAY_MISMATCH: replaying record entry #0: the re-decided receipt differs from the recorded one (another steward, other trust roots, or a tampered entry)');
  });

  it('an outcome for a decision that was denied, already settled, or is not a decision', () => {
    for (const [settle, outcome, stands] of [
      [false, { kind: 'outcome', entry: 1, outcome: 'completed' }, 'denied'],
      [true, { kind: 'outcome', entry: 0, outcome: 'failed' }, 'completed'],
      [true, { kind: 'outcome', entry: 2, outcome: 'failed' }, 'not an allowed decision'],
    ] as const) {
      const p = tmpRecord();
      const a = open(p);
      const d = recorded(a.decide(streamRequest(0, 10n)));
      recorded(a.decide(streamRequest(2, ROOT_BUDGET_UJ)));
      if (settle) a.complete(d.entryId, 'completed');
      a.close();
      const id = settle ? 3 : 2;
      const e = refusal(p, [outcome]);
      expect(e.message).toBe(`ERR_RECORD_REPLAY_MISMATCH: replaying record entry #${id}: an outcome names entry #${outcome.entry}, which is ${stands}`);
      expect(e.detail).toEqual({ entry: id });
    }
  });

  it('a revocation by a party without the authority to revoke (jcp §4.3)', () => {
    const e = refusal(tmpRecord(), [{ kind: 'revocation', revocation: mintRevocation(bob, ROOT_ID, nonce('durable:not-issuer')), grant: rootGrant }]);
    expect(e.message).toBe('ERR_RECORD_REPLAY_MISMATCH: replaying record entry #0: a recorded revocation is not honoured (ERR_REVOCATION_UNAUTHORIZED)');
    expect(e.detail).toEqual({ entry: 0 });
  });

  it('an entry that verifies but does not parse is ERR_RECORD_CORRUPT, naming the entry and why', () => {
    const p = tmpRecord();
    const a = open(p);
    recorded(a.decide(streamRequest(0, 10n)));
    a.close();
    appendTo(p, [forged({ request: { ...streamRequest(2, 10n), frame: { ...streamRequest(2, 10n).frame, kind: 'teleport' } } })]);
    const e = thrown(() => open(p));
    expect(e.code).toBe('ERR_RECORD_CORRUPT');
    expect(e.message).toMatch(/^ERR_RECORD_CORRUPT: record entry #1 verifies but does not parse \(ERR_FRAME_MALFORMED: #1\.request\.frame\.kind: kind must be one of /);
    expect(e.detail).toEqual({ entry: 1 });
    expect(thrown(() => {
      throw e.cause;
    }).code).toBe('ERR_FRAME_MALFORMED');
    // a field the entry's own reading refuses comes through as that reading names it
    const q = tmpRecord();
    appendTo(q, [forged({ verdict: 'maybe' })]);
    const f = thrown(() => open(q));
    expect(f.message).toBe('ERR_RECORD_CORRUPT: record entry #0.verdict: must be allow or deny');
    expect(f.detail).toBeUndefined();
  });
});

describe('describeTornTail: what a torn tail held, as far as its bytes can be read (jcp §4.11, ./FORMAT.md)', () => {
  const WHY = 'the entry runs past the end of the file';
  const torn = (fields: readonly (readonly [string, CborValue])[], declared?: number): TornTail => ({ offset: 300, length: 50, why: WHY, ...(declared === undefined ? {} : { declared }), fields: new Map(fields) });
  const head = `a torn entry of 50 byte(s) at byte 300`;

  it('a decision whose request key was written whole: its kind, and a copy of its key', () => {
    const key = requestKey(5);
    const t = describeTornTail(torn([['key', key], ['kind', 'decision']], 120));
    expect(t).toMatchObject({ offset: 300, length: 50, why: WHY, declared: 120, kind: 'decision', requestKey: requestKey(5) });
    expect(t.summary).toBe(`${head} (of 120 declared) was cut away, never acknowledged: ${WHY}; a decision on request key ${toHex(requestKey(5))}`);
    key.fill(0);
    expect(t.requestKey).toEqual(requestKey(5));
  });

  it('a key of another length is no request key; the kind is still read', () => {
    const t = describeTornTail(torn([['key', new Uint8Array(31)], ['kind', 'decision']]));
    expect(t.kind).toBe('decision');
    expect(t.requestKey).toBeUndefined();
    expect(t.summary).toBe(`${head} was cut away, never acknowledged: ${WHY}; a decision entry with no request key`);
  });

  it('an entry of another kind', () => {
    const t = describeTornTail(torn([['kind', 'revocation']]));
    expect(t).toMatchObject({ kind: 'revocation' });
    expect(t.summary).toBe(`${head} was cut away, never acknowledged: ${WHY}; a revocation entry`);
  });

  it('fields with no kind that is text: no kind is reported', () => {
    for (const fields of [[['kind', 5n]], [['key', new Uint8Array(31)]]] as const) {
      const t = describeTornTail(torn(fields));
      expect('kind' in t).toBe(false);
      expect(t.requestKey).toBeUndefined();
      expect(t.summary).toBe(`${head} was cut away, never acknowledged: ${WHY}; an entry whose kind was not written whole`);
    }
  });

  it('no field written whole', () => {
    const t = describeTornTail(torn([]));
    expect(['kind', 'requestKey', 'declared'].filter((k) => k in t)).toEqual([]);
    expect(t.summary).toBe(`${head} was cut away, never acknowledged: ${WHY}; the torn bytes cannot be decoded (no field of the entry was written whole)`);
  });
});
