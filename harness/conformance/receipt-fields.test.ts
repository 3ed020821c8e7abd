// Conformance: jcp §8 a verifier reads the core under the profile it names and refuses any core that is not that
// profile's preimage — a missing or unknown field, a wrong type, a coverage other than "Partial", a deny without its
// reason — even when the steward's signature over it is good. Cores are crafted and sealed with the oracle. That a core
// is refused is the spec's grade; the ERR_ code it is refused with is the suite's byte contract (the spec names none).
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { expectRefusedAs } from '../contract-codes.ts';
import { codeOf } from '../refusal.ts';
import { implementation } from '../driver.ts';
import { alice, bob, frameFor, nonce, steward, TOOL } from '../fixtures.ts';
import { cborTag, createEnforcementPoint, decodeCanonical, defaultEd25519, encodeCanonical, grantId, mintGrant, protectedHeaderBytes, sigStructure, signedGrantToCbor, signSign1, stewardKid, type CborValue } from '../oracle.ts';

type CoreMap = Map<CborValue, CborValue>;

let base: CoreMap | undefined;
/**
 * The core of a real allow receipt, sealed by the reference (the oracle): these tests are of the implementation's
 * verifier, so their template must not depend on the implementation's own sealing.
 */
async function realCore(): Promise<CoreMap> {
  if (!base) {
    const sg = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1000n, nonce: nonce('fields') });
    const m = { signed_grant: encodeCanonical(signedGrantToCbor(sg)), grant_id: grantId(sg.grant) };
    const f = frameFor(m);
    const d = createEnforcementPoint({ steward }).decide({ frame: { ...f, kind: 'tool-call', trust: 'control' }, chain: [sg], caller: bob.did, cost: { uj: 9n, provenance: 'Estimator' }, now_s: 1n });
    const top = decodeCanonical(d.receipt, { allowTags: [18] }) as { value: CborValue[] };
    base = decodeCanonical(top.value[2] as Uint8Array) as CoreMap;
  }
  return new Map(base);
}

function with_(core: CoreMap, k: string, v: CborValue | undefined): CoreMap {
  const c = new Map(core);
  if (v === undefined) c.delete(k);
  else c.set(k, v);
  return c;
}

/** Seals any payload bytes as the steward would (a correct signature over whatever the core says). */
function seal(payload: Uint8Array): Uint8Array {
  return signSign1(payload, stewardKid(steward.did), steward.seed, defaultEd25519());
}
const sealCore = (c: CoreMap) => seal(encodeCanonical(c));
const verify = (r: Uint8Array) => codeOf(implementation().verifyReceipt(r, steward.did));

describe('jcp §8 the core is read under its profile', () => {
  clauseIt(['jcp/8#recompute-under-profile', 'jcp/8#payload-hash-included'], 'every required field of jcp/2 is required, and of jcp/1 too', async () => {
    const core = await realCore();
    expect(await verify(sealCore(core))).toBe('accepted');
    const required = ['jcp_receipt', 'grant_id', 'issuer', 'subject', 'resource', 'action', 'payload_hash', 'frame_kind', 'trust', 'verdict', 'cost_uj', 'energy_provenance', 'budget_remaining_uj', 'budget_uj', 'steward'];
    for (const k of required) {
      const want = k === 'jcp_receipt' ? 'ERR_RECEIPT_PROFILE_UNKNOWN' : 'ERR_RECEIPT_MALFORMED';
      expectRefusedAs(await verify(sealCore(with_(core, k, undefined))), want, `jcp/2 without ${k}`);
    }
    const v1 = with_(with_(core, 'jcp_receipt', 'jcp/1'), 'payload_hash', undefined);
    expect(await verify(sealCore(v1))).toBe('accepted');
    for (const k of required.filter((x) => x !== 'payload_hash' && x !== 'jcp_receipt')) {
      expectRefusedAs(await verify(sealCore(with_(v1, k, undefined))), 'ERR_RECEIPT_MALFORMED', `jcp/1 without ${k}`);
    }
  });

  clauseIt(['jcp/8#recompute-under-profile'], 'a field of the wrong type or value is refused, whatever the signature says', async () => {
    const core = await realCore();
    const cases: Array<[string, CborValue]> = [
      ['grant_id', 'ABC'],
      ['grant_id', 5],
      ['issuer', 'did:key:zNope'],
      ['subject', 7],
      ['steward', 'mallory'],
      ['resource', new Uint8Array(32)],
      ['payload_hash', 'f'.repeat(63)],
      ['action', ''],
      ['action', 3],
      ['frame_kind', 'tool-exec'],
      ['trust', 'maybe'],
      ['verdict', 'perhaps'],
      ['cost_uj', -1],
      ['cost_uj', '9'],
      ['budget_uj', new Uint8Array(1)],
      ['budget_remaining_uj', -5],
      ['energy_provenance', 'Guess'],
      ['energy_coverage', 'Whole'],
      ['energy_coverage', 'partial'],
      ['chain_ids', []],
      ['chain_ids', ['not-a-cid']],
      ['chain_ids', 'a'.repeat(64)],
      ['an_unknown_field', 'x'],
    ];
    for (const [k, v] of cases) {
      const what = `${k} = ${typeof v === 'string' ? JSON.stringify(v) : v instanceof Uint8Array ? 'bytes' : String(v)}`;
      expectRefusedAs(await verify(sealCore(with_(core, k, v))), 'ERR_RECEIPT_MALFORMED', what);
    }
    // and the valid forms of the optional fields are accepted
    expect(await verify(sealCore(with_(core, 'energy_coverage', 'Partial')))).toBe('accepted');
    expect(await verify(sealCore(with_(core, 'chain_ids', ['a'.repeat(64), core.get('grant_id') as string])))).toBe('accepted');
    // §8.1: chain_ids are every grant id debited, root first — so the receipt's own grant last. §8.1 asks them of a
    // multi-hop chain and neither asks nor forbids them on a single grant's receipt, so chain_ids of the grant_id alone
    // may be accepted or refused: this test asserts nothing about it.
    expectRefusedAs(await verify(sealCore(with_(core, 'chain_ids', ['a'.repeat(64), 'b'.repeat(64)]))), 'ERR_RECEIPT_MALFORMED', 'chain_ids not ending in the grant_id');
    expect(await verify(sealCore(with_(core, 'cost_uj', 2n ** 64n - 1n)))).toBe('accepted');
    // zero is a uint: a free call and a spent budget are ordinary values
    expect(await verify(sealCore(with_(with_(core, 'cost_uj', 0), 'budget_remaining_uj', 0)))).toBe('accepted');
  });

  clauseIt(['jcp/8#every-decision-sealed'], 'a deny names its reason and an allow names none', async () => {
    const core = await realCore();
    expectRefusedAs(await verify(sealCore(with_(core, 'deny_reason', 'expired'))), 'ERR_RECEIPT_MALFORMED', 'an allow with a deny_reason');
    const deny = with_(core, 'verdict', 'deny');
    expectRefusedAs(await verify(sealCore(deny)), 'ERR_RECEIPT_MALFORMED', 'a deny without a deny_reason');
    expect(await verify(sealCore(with_(deny, 'deny_reason', 'expired')))).toBe('accepted');
  });

  clauseIt(['jcp/8#refuse-unknown-profile'], 'a profile tag that is not text is refused as unknown', async () => {
    const core = await realCore();
    for (const tag of [2, new Uint8Array([1]), ['jcp/2']] as CborValue[]) {
      expectRefusedAs(await verify(sealCore(with_(core, 'jcp_receipt', tag))), 'ERR_RECEIPT_PROFILE_UNKNOWN', `jcp_receipt ${tag instanceof Uint8Array ? 'bytes' : JSON.stringify(tag)}`);
    }
  });

  clauseIt(['jcp/11#reject-non-canonical', 'jcp/3#no-float-bool-null'], 'a signed core that is not canonical det-CBOR, or not a map, is refused', async () => {
    const canonical = encodeCanonical(await realCore());
    // the same map with its first key's length argument widened to a non-shortest form: 0x6b → 0x78 0x0b
    const i = 1;
    const widened = Uint8Array.from([...canonical.subarray(0, i), 0x78, canonical[i]! & 0x1f, ...canonical.subarray(i + 1)]);
    expectRefusedAs(await verify(seal(widened)), 'ERR_RECEIPT_MALFORMED', 'a core with a widened key head');
    expectRefusedAs(await verify(seal(Uint8Array.of(0xf5))), 'ERR_RECEIPT_MALFORMED', 'a core that is true');
    // a float, a bool and a null as a field value inside an otherwise well-formed core map
    for (const [bad, what] of [[[0xf9, 0x00, 0x00], 'float'], [[0xf4], 'false'], [[0xf6], 'null']] as const) {
      const withCost = encodeCanonical(with_(await realCore(), 'cost_uj', 0x7777));
      const at = withCost.indexOf(0x19, 0); // 0x19 0x77 0x77: the cost's 2-byte argument, unique in this core
      expect(withCost[at + 1] === 0x77 && withCost[at + 2] === 0x77, what).toBe(true);
      const patched = Uint8Array.from([...withCost.subarray(0, at), ...bad, ...withCost.subarray(at + 3)]);
      expectRefusedAs(await verify(seal(patched)), 'ERR_RECEIPT_MALFORMED', `a core with a ${what} cost_uj`);
    }
    expectRefusedAs(await verify(seal(Uint8Array.of(0xf9, 0x3c, 0x00))), 'ERR_RECEIPT_MALFORMED', 'a core that is 1.0 as a half float');
    expectRefusedAs(await verify(seal(encodeCanonical(['jcp/2']))), 'ERR_RECEIPT_MALFORMED', 'a core that is an array');
    expectRefusedAs(await verify(seal(Uint8Array.of(...canonical, 0x00))), 'ERR_RECEIPT_MALFORMED', 'a core with a trailing byte');
  });

  clauseIt(['jcp/8#cose-sign1-eddsa', 'jcp/8#steward-is-kid'], 'the protected header holds exactly alg −8 and a byte-string kid', async () => {
    const payload = encodeCanonical(await realCore());
    const env = (prot: Uint8Array) => {
      const sig = defaultEd25519().sign(steward.seed, sigStructure(prot, payload));
      return encodeCanonical(cborTag(18, [prot, new Map(), payload, sig]), { allowTags: true });
    };
    const kid = stewardKid(steward.did);
    expect(await verify(env(protectedHeaderBytes(kid)))).toBe('accepted');
    const extra = encodeCanonical(new Map<CborValue, CborValue>([[1, -8], [3, 0], [4, kid]]));
    expectRefusedAs(await verify(env(extra)), 'ERR_COSE_MALFORMED', 'a protected header with a third entry');
    const textKid = encodeCanonical(new Map<CborValue, CborValue>([[1, -8], [4, steward.did]]));
    expectRefusedAs(await verify(env(textKid)), 'ERR_COSE_MALFORMED', 'a text kid');
    const noKid = encodeCanonical(new Map<CborValue, CborValue>([[1, -8]]));
    expectRefusedAs(await verify(env(noKid)), 'ERR_COSE_MALFORMED', 'no kid');
    const noAlg = encodeCanonical(new Map<CborValue, CborValue>([[4, kid]]));
    expectRefusedAs(await verify(env(noAlg)), 'ERR_COSE_UNSUPPORTED_ALG', 'no alg');
  });
});
