// Unit test of the direct receipt-core writer (impl/receipt/encode-core.ts): it must write exactly the generic
// canonical encoder's bytes, for random cores and for a core sealed by a real decision.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCanonical } from '../cbor/index.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { coreToCbor, type ReceiptCore } from './core.ts';
import { encodeReceiptCore, writeReceiptCoreAt } from './encode-core.ts';

// the suite's fixed fast-check seed ("JCP"), overridable with FC_SEED / FC_RUNS to replay a failure
const FC = {
  seed: process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : 0x4a4350,
  numRuns: process.env['FC_RUNS'] !== undefined ? Number(process.env['FC_RUNS']) : 300,
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('encodeReceiptCore', () => {
  it('writes exactly the generic canonical encoder’s bytes, for random cores', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '-', '/', 'é', '€', '𝄞'), minLength: 1, maxLength: 70 });
    const uint = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    const core = fc.record(
      {
        jcp_receipt: fc.constant('jcp/2'),
        grant_id: text, issuer: text, subject: text, resource: text, action: text, payload_hash: text,
        frame_kind: text, trust: text, verdict: text, deny_reason: text, cost_uj: uint, energy_provenance: text,
        energy_coverage: text, budget_remaining_uj: uint, budget_uj: uint, steward: text,
        chain_ids: fc.array(text, { minLength: 1, maxLength: 4 }),
      },
      { requiredKeys: ['jcp_receipt', 'grant_id', 'cost_uj', 'steward'] },
    );
    fc.assert(
      fc.property(core, (c) => {
        const direct = encodeReceiptCore(c as unknown as ReceiptCore);
        const generic = encodeCanonical(coreToCbor(c as unknown as ReceiptCore));
        expect(hex(direct)).toBe(hex(generic));
      }),
      FC,
    );
  });

  it('writes the generic encoder’s bytes for the core of a real decision (allow and deny)', () => {
    const alice = keyPairFromSeed(deriveSeed('alice'));
    const bob = keyPairFromSeed(deriveSeed('bob'));
    const steward = keyPairFromSeed(deriveSeed('steward'));
    const resource = contentId({ resource: 'tool:search' });
    const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(1) });
    const p = createEnforcementPoint({ steward });
    const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) } as const;
    for (const caller of [bob.did, alice.did]) {
      const d = p.decide({ frame, chain: [sg], caller, cost: { uj: 42n, provenance: 'HwShunt' }, now_s: 1n });
      expect(hex(encodeReceiptCore(d.core))).toBe(hex(encodeCanonical(coreToCbor(d.core))));
    }
  });
});

describe('encodeReceiptCore over a sequence of cores (the writer reuses the bytes of fields equal to the last core\'s)', () => {
  it('writes the generic encoder\'s bytes for each core of random sequences where fields change, appear, vanish or repeat', () => {
    const ids = ['a', 'b', 'c'].map((x) => x.repeat(64));
    const text = fc.constantFrom('control', 'data', 'call', 'x', 'appel-é', '', ...ids);
    const uint = fc.constantFrom(0n, 23n, 24n, 1000n, 0xffffffffn, 0x100000000n, (1n << 64n) - 1n);
    const names = ['grant_id', 'issuer', 'subject', 'resource', 'action', 'payload_hash', 'frame_kind', 'trust', 'verdict', 'deny_reason', 'energy_provenance', 'energy_coverage', 'steward'] as const;
    const nums = ['cost_uj', 'budget_remaining_uj', 'budget_uj'] as const;
    // one step: a few fields set to a value, or removed (optional ones), or chain_ids replaced or changed in place
    const step = fc.record({
      texts: fc.array(fc.tuple(fc.constantFrom(...names), fc.option(text, { nil: undefined })), { maxLength: 4 }),
      numbers: fc.array(fc.tuple(fc.constantFrom(...nums), uint), { maxLength: 2 }),
      chain: fc.constantFrom('keep', 'drop', 'new', 'mutate'),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const c: Record<string, unknown> = { jcp_receipt: 'jcp/2', grant_id: ids[0], issuer: 'did:x', cost_uj: 1n, steward: 'did:s', budget_uj: 5n };
        for (const st of steps) {
          for (const [k, v] of st.texts) {
            if (v === undefined && (k === 'grant_id' || k === 'steward')) continue; // required
            if (v === undefined) delete c[k];
            else c[k] = v;
          }
          for (const [k, v] of st.numbers) c[k] = v;
          if (st.chain === 'drop') delete c['chain_ids'];
          else if (st.chain === 'new') c['chain_ids'] = [ids[1], ids[2]];
          else if (st.chain === 'mutate' && Array.isArray(c['chain_ids'])) (c['chain_ids'] as string[])[0] = (c['chain_ids'] as string[])[0] === ids[0] ? ids[1]! : ids[0]!;
          // a fresh object each time, as a decision builds; the same values as the last one where unchanged
          const core = { ...c } as unknown as ReceiptCore;
          expect(hex(encodeReceiptCore(core))).toBe(hex(encodeCanonical(coreToCbor(core))));
        }
      }),
      FC,
    );
  });

  it('a core longer than the scratch array grows it, keeping the last core\'s bytes for the next to reuse', () => {
    const did = 'did:key:z6Mk' + 'a'.repeat(44);
    const base = { jcp_receipt: 'jcp/2', grant_id: 'b'.repeat(64), issuer: did, subject: did, cost_uj: 1000n, steward: did, budget_uj: 7n, payload_hash: 'd'.repeat(64) } as unknown as ReceiptCore;
    const long = (k: number) => ({ ...base, chain_ids: Array.from({ length: k }, (_, i) => i.toString(16).padStart(64, '0')) }) as unknown as ReceiptCore;
    for (const core of [base, long(40), { ...base }, long(200), long(3), { ...base, payload_hash: 'e'.repeat(64) }, long(400), { ...base }]) {
      expect(hex(encodeReceiptCore(core))).toBe(hex(encodeCanonical(coreToCbor(core))));
      // and through the in-place writer, with room asked for before and after
      const w = writeReceiptCoreAt(core, 90, 66);
      expect(hex(w.bytes.subarray(w.at, w.end))).toBe(hex(encodeCanonical(coreToCbor(core))));
      expect(w.limit - w.end).toBeGreaterThanOrEqual(66);
    }
  });

  it('a core the direct writer cannot take (the generic path) leaves the last written core to be reused', () => {
    const did = 'did:key:z6Mk' + 'a'.repeat(44);
    const base = { jcp_receipt: 'jcp/2', grant_id: 'b'.repeat(64), issuer: did, cost_uj: 1000n, steward: did, budget_uj: 7n } as unknown as ReceiptCore;
    const odd = { ...base, cost_uj: 1n << 64n } as unknown as ReceiptCore; // out of range: the generic encoder refuses it
    expect(hex(encodeReceiptCore(base))).toBe(hex(encodeCanonical(coreToCbor(base))));
    expect(() => encodeReceiptCore(odd)).toThrow();
    const again = { ...base, issuer: did + 'b' } as unknown as ReceiptCore;
    expect(hex(encodeReceiptCore(again))).toBe(hex(encodeCanonical(coreToCbor(again))));
    expect(hex(encodeReceiptCore(base))).toBe(hex(encodeCanonical(coreToCbor(base))));
  });
});

describe('encodeReceiptCore returns bytes of its own', () => {
  it('a later encoding does not change an earlier result, which is a plain Uint8Array', () => {
    const a = { jcp_receipt: 'jcp/2', grant_id: 'a'.repeat(64), cost_uj: 1n, steward: 'x' } as never;
    const b = { jcp_receipt: 'jcp/2', grant_id: 'b'.repeat(64), cost_uj: 2n, steward: 'y' } as never;
    const first = encodeReceiptCore(a);
    const copy = first.slice();
    encodeReceiptCore(b);
    expect(Buffer.from(first).equals(Buffer.from(copy))).toBe(true);
    expect(Object.getPrototypeOf(first)).toBe(Uint8Array.prototype);
  });
});

describe('writeReceiptCoreAt', () => {
  it('writes the generic encoder\'s bytes after the headroom asked for, or hands back the generic bytes at 0', () => {
    const did = 'did:key:z6Mk' + 'a'.repeat(44);
    const base = {
      jcp_receipt: 'jcp/2', grant_id: 'b'.repeat(64), issuer: did, subject: did, resource: 'c'.repeat(64), action: 'call',
      payload_hash: 'd'.repeat(64), frame_kind: 'tool-call', trust: 'control', verdict: 'allow', cost_uj: 1000n,
      energy_provenance: 'Estimator', budget_remaining_uj: (1n << 62n) - 1000n, budget_uj: 1n << 62n, steward: did,
    } as unknown as ReceiptCore;
    const cores = [base, { ...base, verdict: 'deny', deny_reason: 'expired', chain_ids: ['e'.repeat(64), 'b'.repeat(64)] }, { ...base, action: 'appel-é' }];
    for (const core of cores) {
      const generic = hex(encodeCanonical(coreToCbor(core as ReceiptCore)));
      for (const room of [0, 1, 80, 3000]) {
        // twice: the second time the long strings come from the writer's cache
        for (let k = 0; k < 2; k++) {
          const w = writeReceiptCoreAt(core as ReceiptCore, room);
          expect(hex(w.bytes.subarray(w.at, w.end))).toBe(generic);
          const ascii = !(core as { action: string }).action.includes('é');
          expect(w.at).toBe(ascii ? room : 0);
          if (!ascii) expect(w.end).toBe(w.bytes.length);
        }
      }
    }
  });
});
