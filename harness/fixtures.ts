// Deterministic fixtures for conformance tests: keys from labelled seeds, nonces and resources from labels, and
// small builders over the implementation under test. Every value is the same on every machine.
import { expect } from 'vitest';
import { ByteContractDifference, ifImplemented } from './clause.ts';
import { implementation } from './driver.ts';
import type { DecideFields, DecisionResult, FrameFields, MintFields, Minted, Point } from './implementation.ts';
import { blake3, contentId, decodeCanonical, deriveSeed, grantId, keyPairFromSeed, lazy, parseSignedGrant, type KeyPair, type SignedGrant } from './oracle.ts';

const utf8 = new TextEncoder();

/**
 * A key pair from a label (seed, public key, did:key computed by the reference), derived on first read: named at a
 * test file's top level, it is derived inside the test that first reads it, not at import, where the reference's key
 * and did:key code would run outside every test (Stryker's static mutants).
 */
export function key(label: string): KeyPair {
  return lazy(() => keyPairFromSeed(deriveSeed(label)));
}

/** A 16-byte nonce from a label. */
export function nonce(label: string): Uint8Array {
  return blake3(utf8.encode(`nonce:${label}`)).slice(0, 16);
}

/** A content-addressed resource named by a label. */
export function resource(label: string): string {
  return contentId({ resource: label });
}

/** A content id standing for a payload named by a label. */
export function payload(label: string): string {
  return contentId({ payload: label });
}

export const alice = key('alice'); // a root issuer
export const bob = key('bob'); // a holder
export const carol = key('carol'); // a delegate
export const dave = key('dave'); // another delegate
export const mallory = key('mallory'); // an attacker
export const steward = key('steward'); // seals receipts
/** `resource('tool:search')`, written out so that importing the fixtures hashes nothing (harness/fixtures.test.ts checks it). */
export const TOOL = '311b63475d02a76ef33e92f6617214c5601352e6d7b493c29f1e02b3f23fd1bf';

/**
 * `make`, run by the first test that asks and shared by every later one (a fixture the testee makes, such as a key
 * group or a grant: made once a run, inside a test, never at import). A failure is kept too: each test that needs the
 * fixture fails with the testee's one error rather than asking it again.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** An estimated cost of `uj` microjoules. */
export function cost(uj: bigint, provenance = 'Estimator'): DecideFields['cost'] {
  return { uj, provenance };
}

/** Mints, in the implementation under test, a root grant from `issuer` (alice) to bob over TOOL, 1000 µJ, actions call and read. */
export function rootGrant(over: Partial<MintFields> = {}, issuer: KeyPair = alice): Promise<Minted> {
  return implementation().mintGrant(issuer.seed, {
    subject: bob.did,
    resource: TOOL,
    actions: ['call', 'read'],
    budget_uj: 1000n,
    nonce: nonce('root'),
    ...over,
  });
}

/**
 * What a grant the implementation under test made says (to build frames and expectations): read from its bytes when
 * they are in the published layout (vectors/README.md), else the neutral view grant.verify gave back when the grant
 * was made (harness/implementation.ts). A grant in neither is a byte-contract difference, never a refusal by the
 * testee. In the neutral view the signature is not known (empty).
 */
export function grantOf(m: Minted | Uint8Array): SignedGrant {
  const b = m instanceof Uint8Array ? m : m.signed_grant;
  try {
    return parseSignedGrant(decodeCanonical(b));
  } catch (e) {
    const v = implementation().grantView(b);
    if (v) return { grant: v.grant, signature: new Uint8Array(0) };
    throw new ByteContractDifference(`byte contract: the harness cannot read this grant: it is not in the published layout (${e instanceof Error ? e.message : String(e)}) and the implementation gave no neutral view of it (grant.verify's \`grant\`)`);
  }
}

/** The content id of a grant, as the implementation under test names it (its own, for a grant in its own layout). */
export function idOf(m: Minted | Uint8Array): string {
  if (!(m instanceof Uint8Array)) return m.grant_id;
  return implementation().grantView(m)?.grant_id ?? grantId(grantOf(m).grant);
}

/** A control tool-call frame exercising `m` with action `call`, unless overridden. */
export function frameFor(m: Minted, over: Partial<FrameFields> = {}): FrameFields {
  const g = grantOf(m).grant;
  return {
    kind: 'tool-call',
    trust: 'control',
    grant_id: m.grant_id,
    action: 'call',
    resource: g.capability.resource,
    payload_hash: payload('args'),
    ...over,
  };
}

/** A fresh enforcement point in the implementation under test, sealing with the steward key. */
export function point(trustRoots?: Record<string, string[]>) {
  return implementation().newPoint(steward.seed, trustRoots);
}

/**
 * Decides on `p` and checks what every decision owes, allow or deny (jcp §7, §8): the receipt verifies under the
 * steward and says the same verdict and reason; a deny moves no link's spend.
 */
export async function decideChecked(p: Point, r: DecideFields): Promise<DecisionResult> {
  const ids = r.chain.map((b) => idOf(b));
  // each sub-check needs an operation of its own class (point.spent: C3; receipt.verify: C5): left out, and said so in
  // the record, when the testee does not implement it and no claimed class of the running test requires it
  const spends = () => ifImplemented(Promise.all(ids.map((id) => p.spent(id))));
  const before = await spends();
  const d = await p.decide(r);
  const core = await ifImplemented(implementation().verifyReceipt(d.receipt, steward.did));
  if (core) expect([core['verdict'], core['deny_reason']]).toEqual([d.verdict, d.deny_reason]);
  if (d.verdict === 'deny' && before) expect(await spends()).toEqual(before);
  return d;
}
