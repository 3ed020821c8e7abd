// N×N interop: the scenarios, one per conformance class of jcp §9 whose objects cross between
// implementations — grants (C1), attenuation and depth (C2, §4.4), budgets (C3), receipts (C5), revocation (C6),
// chains and caveats (C7, §4.9), shards (C11), payload binding (C23), and non-canonical encodings (C-neg, §3/§11).
// Each scenario PRODUCES its objects through the producer's own ops (mint, attenuate, shard, mintRevocation, decide
// → receipt), including refusals an honest producer owes (an amplifying attenuation, a non-holder's, slices past the
// parent), and each case CONSUMES them in another implementation (grant.verify, a point's decide over a chain and its
// spend, point.revoke, receipt.verify, cbor.check), some after a deterministic alteration made here with the reference
// (a flipped signature bit, a non-canonical re-encoding, an amplifying child, a child signed by a wrong key, a
// receipt whose payload changed under the old signature) so that a lax consumer shows up.
// No case depends on a meaning the spec leaves open (jcp/7#open-expiry-boundary, jcp/7#open-caveat-position,
// jcp/3#open-key-order, the order between two refusals of one input), so an implementation taking another reasonable
// reading never reads DIFFER; each spot where one was avoided says so.
// Keys, resources and payloads come from the labels of harness/fixtures.ts (that module imports vitest, so its
// one-line derivations are repeated here), nonces from labels under "interop:", clocks are fixed: the same inputs
// give the same bytes in every implementation.
// The jcp §11 wire is not here: no testee op makes a wire request, so there is nothing one implementation could hand
// another (a live endpoint is certified through `certify --endpoint`).
import type { FrameFields, Implementation, Point } from '../implementation.ts';
import {
  blake3,
  cborTag,
  concatBytes,
  contentId,
  decodeCanonical,
  decodeSign1,
  defaultEd25519,
  deriveSeed,
  encodeCanonical,
  grantBytes,
  grantId,
  keyPairFromSeed,
  parseSignedGrant,
  parseSignedRevocation,
  signedGrantToCbor,
  signedRevocationToCbor,
  signGrant,
  signSign1,
  stewardKid,
  type CborMap,
  type CborValue,
  type Grant,
  type KeyPair,
  type SignedGrant,
} from '../oracle.ts';
import { derive, Underivable, type Maker, type Recorder } from './case.ts';

// ---- fixtures: the labels of harness/fixtures.ts ----
const utf8 = new TextEncoder();
const key = (label: string): KeyPair => keyPairFromSeed(deriveSeed(label));
const nonce = (label: string): Uint8Array => blake3(utf8.encode(`nonce:interop:${label}`)).slice(0, 16);
const resource = (label: string): string => contentId({ resource: label });
const payload = (label: string): string => contentId({ payload: label });
const alice = key('alice'); // a root issuer
const bob = key('bob'); // a holder
const carol = key('carol'); // a delegate
const dave = key('dave'); // another delegate
const mallory = key('mallory'); // an attacker
const steward = key('steward'); // seals receipts
const TOOL = resource('tool:search');
const NOW = 1_000n;

/** One case: what the consumer does with the producer's objects. */
export interface InteropCase {
  readonly name: string;
  run(r: Recorder): Promise<void>;
}

/** One class's scenario: how a producer makes its objects, and the cases every consumer runs over them. */
export interface Scenario {
  /** The class id, e.g. jcp:C1. */
  readonly cls: string;
  readonly title: string;
  produce(m: Maker): Promise<void>;
  readonly cases: readonly InteropCase[];
}

// ---- helpers over the producer's bytes (read with the reference) ----

const grantOf = (b: Uint8Array): SignedGrant => derive('a signed grant', () => parseSignedGrant(decodeCanonical(b)));
const idOf = (b: Uint8Array): string => derive('a grant id', () => grantId(grantOf(b).grant));
const encodeSigned = (sg: SignedGrant): Uint8Array => encodeCanonical(signedGrantToCbor(sg));

/** `b` with one bit of its grant signature flipped. */
function flipGrantSignature(b: Uint8Array): Uint8Array {
  const sg = grantOf(b);
  const sig = sg.signature.slice();
  sig[63]! ^= 0x01;
  return encodeSigned({ grant: sg.grant, signature: sig });
}

/** The grant of `b` with `over` applied, signed exactly as given by `signer` (no attenuation check): an attacker's link. */
function resigned(b: Uint8Array, signer: KeyPair, over: Partial<Grant>, drop: ReadonlyArray<keyof Grant> = []): Uint8Array {
  const g = { ...grantOf(b).grant, ...over } as Record<string, unknown>;
  for (const k of drop) delete g[k];
  return derive('a re-signed grant', () => encodeSigned(signGrant(g as unknown as Grant, signer)));
}

/** A decision's verdict and reason, as recorded. */
const verdict = (d: { verdict: string; deny_reason?: string }) => ({ verdict: d.verdict, deny_reason: d.deny_reason });

interface Ask {
  readonly caller: KeyPair;
  readonly action?: string;
  readonly uj?: bigint;
  readonly provenance?: string;
  readonly now_s?: bigint;
  readonly frame?: Partial<FrameFields>;
}

/** A decision at `p` over `chain` (root first), framed for its leaf; records the verdict and reason. */
async function decide(r: Recorder, p: Point, step: string, chain: readonly Uint8Array[], a: Ask): Promise<void> {
  const leaf = grantOf(chain[chain.length - 1]!).grant;
  const frame: FrameFields = {
    kind: 'tool-call',
    trust: 'control',
    grant_id: grantId(leaf),
    action: a.action ?? 'call',
    resource: leaf.capability.resource,
    payload_hash: payload('args'),
    ...a.frame,
  };
  await r.say(step, p.decide({ frame, chain, caller: a.caller.did, cost: { uj: a.uj ?? 10n, provenance: a.provenance ?? 'Estimator' }, now_s: a.now_s ?? NOW }), verdict);
}

/** Records the spend `p` holds against the grant `b`. */
async function spent(r: Recorder, p: Point, name: string, b: Uint8Array): Promise<void> {
  await r.say(`spent ${name}`, p.spent(idOf(b)));
}

const newPoint = (r: Recorder): Promise<Point> => r.need('point.new', r.impl.newPoint(steward.seed));

/** A root grant alice → bob over TOOL, [call, read], 1000 µJ, unless overridden. */
function mintRoot(impl: Implementation, label: string, over: Partial<Parameters<Implementation['mintGrant']>[1]> = {}, issuer: KeyPair = alice) {
  return impl.mintGrant(issuer.seed, { subject: bob.did, resource: TOOL, actions: ['call', 'read'], budget_uj: 1000n, nonce: nonce(label), ...over });
}

/** A case that verifies the producer's grant `name` (possibly altered by `alter`). */
function verifyCase(caseName: string, name: string, alter?: (b: Uint8Array) => Uint8Array): InteropCase {
  return {
    name: caseName,
    async run(r) {
      const b = r.present(name, alter ? alter(r.bytes(name)) : r.bytes(name));
      await r.say('grant.verify', r.impl.verifyGrant(b));
    },
  };
}

// ---- receipts ----

/** The COSE_Sign1 items of a receipt, read with the reference. */
function sign1Of(receipt: Uint8Array) {
  return derive('a receipt', () => decodeSign1(receipt));
}

/** A tagged COSE_Sign1 from its items (the reference's canonical encoder; no signing). */
function envelope(prot: Uint8Array, payloadBytes: Uint8Array, signature: Uint8Array): Uint8Array {
  return encodeCanonical(cborTag(18, [prot, new Map(), payloadBytes, signature] as CborValue[]), { allowTags: true });
}

/** The receipt's core with `edit` applied, under the OLD signature (a substitution the signature must catch). */
function substituted(receipt: Uint8Array, edit: (core: CborMap) => void): Uint8Array {
  const s = sign1Of(receipt);
  const core = derive('a receipt core', () => decodeCanonical(s.payload) as CborMap);
  edit(core);
  return envelope(s.protectedBytes, encodeCanonical(core), s.signature);
}

/** The receipt's core with `edit` applied, re-sealed by the steward (as a receipt of that shape would be published). */
function resealed(receipt: Uint8Array, edit: (core: CborMap) => void): Uint8Array {
  const core = derive('a receipt core', () => decodeCanonical(sign1Of(receipt).payload) as CborMap);
  edit(core);
  return signSign1(encodeCanonical(core), stewardKid(steward.did), steward.seed, defaultEd25519());
}

/** A case that verifies the producer's receipt `name` (possibly altered) under `as` (the steward unless given). */
function receiptCase(caseName: string, name: string, as: string | undefined, alter?: (b: Uint8Array) => Uint8Array): InteropCase {
  return {
    name: caseName,
    async run(r) {
      const b = r.present(name, alter ? alter(r.bytes(name)) : r.bytes(name));
      await r.say('receipt.verify', r.impl.verifyReceipt(b, as));
    },
  };
}

// ---- C-neg: non-canonical re-encodings of canonical bytes (byte splices; the reference's encoder for whole items) ----

/** The signed grant with its top-level map head (0xa2) widened to the one-byte-argument form. */
function widenedMapHead(b: Uint8Array): Uint8Array {
  if (b[0] !== 0xa2) throw new Underivable('the signed grant does not start with a two-entry map head');
  return concatBytes(Uint8Array.of(0xb8, 0x02), b.subarray(1));
}

/** The signed grant as an indefinite-length map. */
function indefiniteMap(b: Uint8Array): Uint8Array {
  if (b[0] !== 0xa2) throw new Underivable('the signed grant does not start with a two-entry map head');
  return concatBytes(Uint8Array.of(0xbf), b.subarray(1), Uint8Array.of(0xff));
}

/** The signed grant with its two entries in the wrong order (signature before grant). */
function keysOutOfOrder(b: Uint8Array): Uint8Array {
  const m = derive('a signed grant', () => decodeCanonical(b) as CborMap);
  const entry = (k: string) => concatBytes(encodeCanonical(k), encodeCanonical(m.get(k) as CborValue));
  return concatBytes(Uint8Array.of(0xa2), entry('signature'), entry('grant'));
}

/** The signed grant with its signature entry given twice. */
function duplicateKey(b: Uint8Array): Uint8Array {
  const m = derive('a signed grant', () => decodeCanonical(b) as CborMap);
  if (b[0] !== 0xa2) throw new Underivable('the signed grant does not start with a two-entry map head');
  return concatBytes(Uint8Array.of(0xa3), b.subarray(1), encodeCanonical('signature'), encodeCanonical(m.get('signature') as CborValue));
}

/** The signed grant with budget_uj 1000 (0x19 03e8) written in the four-byte form (0x1a 000003e8). */
function widenedBudget(b: Uint8Array): Uint8Array {
  const k = encodeCanonical('budget_uj');
  const at = indexOf(b, concatBytes(k, Uint8Array.of(0x19, 0x03, 0xe8)));
  if (at < 0) throw new Underivable('budget_uj 1000 is not where the canonical form puts it');
  const v = at + k.length;
  return concatBytes(b.subarray(0, v), Uint8Array.of(0x1a, 0x00, 0x00, 0x03, 0xe8), b.subarray(v + 3));
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** A case presenting the producer's grant `name` re-encoded by `alter` to the consumer's strict decoder and verifier. */
function canonicalCase(caseName: string, name: string, alter: (b: Uint8Array) => Uint8Array): InteropCase {
  return {
    name: caseName,
    async run(r) {
      const b = r.present(name, alter(r.bytes(name)));
      await r.say('cbor.check', r.impl.cborCheck(b));
      await r.say('grant.verify', r.impl.verifyGrant(b));
    },
  };
}

// ---- the scenarios ----

const C1: Scenario = {
  cls: 'jcp:C1',
  title: 'signed grants + audience binding (jcp §4, §7)',
  async produce(m) {
    await m.grant('root', mintRoot(m.impl, 'c1:root', { expiry: 5000n }));
    await m.grant('depth-bounded', mintRoot(m.impl, 'c1:depth', { delegate_depth: 2n }));
    await m.grant('mallory-grant', mintRoot(m.impl, 'c1:mallory', { actions: ['call'], budget_uj: 1n }, mallory));
    // jcp §4: "The resource is addressed by content, not by URL"
    await m.attempt('url-resource (owes a refusal)', mintRoot(m.impl, 'c1:url', { resource: 'https://tool.example/search' }));
  },
  cases: [
    verifyCase('the root grant verifies, under its id', 'root'),
    verifyCase('the depth-bounded grant verifies', 'depth-bounded'),
    verifyCase('a flipped signature bit does not verify', 'root', flipGrantSignature),
    {
      name: "mallory's signature on alice's grant does not verify",
      async run(r) {
        const sg = grantOf(r.bytes('root'));
        await r.say('grant.verify', r.impl.verifyGrant(r.present('root+mallory signature', encodeSigned({ grant: sg.grant, signature: grantOf(r.bytes('mallory-grant')).signature }))));
      },
    },
    {
      name: 'a raised budget under the old signature does not verify',
      async run(r) {
        const sg = grantOf(r.bytes('root'));
        await r.say('grant.verify', r.impl.verifyGrant(r.present('root, budget raised', encodeSigned({ grant: { ...sg.grant, budget_uj: 999_999n }, signature: sg.signature }))));
      },
    },
    {
      name: 'decide: the exact resource is allowed and debited; another is wrong-resource',
      async run(r) {
        const root = r.present('root', r.bytes('root'));
        const p = await newPoint(r);
        await decide(r, p, 'decide call', [root], { caller: bob, uj: 10n });
        await decide(r, p, 'decide on another resource', [root], { caller: bob, frame: { resource: resource('tool:other') } });
        await decide(r, p, 'decide naming another grant id', [root], { caller: bob, frame: { grant_id: idOf(r.bytes('depth-bounded')) } });
        await spent(r, p, 'root', root);
      },
    },
    {
      name: 'decide: wrong caller, action not granted, bad signature, expired',
      async run(r) {
        const root = r.present('root', r.bytes('root'));
        const p = await newPoint(r);
        await decide(r, p, 'decide as mallory', [root], { caller: mallory });
        await decide(r, p, 'decide delete', [root], { caller: bob, action: 'delete' });
        await decide(r, p, 'decide with a flipped signature', [flipGrantSignature(root)], { caller: bob });
        // not at now_s = expiry: whether a grant is expired at its expiry second is an open point (jcp/7#open-expiry-boundary)
        await decide(r, p, 'decide past its expiry', [root], { caller: bob, now_s: 5001n });
        await spent(r, p, 'root', root);
      },
    },
  ],
};

const C2: Scenario = {
  cls: 'jcp:C2',
  title: 'attenuation monotonicity and delegation depth (jcp §4.1, §4.2, §4.4)',
  async produce(m) {
    const root = await m.grant('root', mintRoot(m.impl, 'c2:root', { expiry: 5000n, delegate_depth: 2n }));
    const child = await m.grant('child', m.impl.attenuate(root, bob.seed, { subject: carol.did, actions: ['read'], budget_uj: 400n, expiry: 4000n, nonce: nonce('c2:child') }));
    const grandchild = await m.grant('grandchild', m.impl.attenuate(child, carol.seed, { subject: dave.did, budget_uj: 100n, nonce: nonce('c2:grandchild') }));
    // jcp §4.1: "A conforming implementation MUST refuse any amplification and MUST refuse delegation by anyone other than the parent's subject."
    const amp = (label: string, f: Partial<Parameters<Implementation['attenuate']>[2]>, holder: KeyPair = bob) =>
      m.attempt(label, m.impl.attenuate(root, holder.seed, { subject: carol.did, nonce: nonce(`c2:${label}`), ...f }));
    await amp('amplify budget (owes a refusal)', { budget_uj: 1001n });
    await amp('amplify actions (owes a refusal)', { actions: ['call', 'delete'] });
    await amp('outlive expiry (owes a refusal)', { expiry: 5001n });
    await amp('never expire (owes a refusal)', { expiry: 0n });
    await amp('deepen (owes a refusal)', { delegate_depth: 2n });
    await amp('non-holder (owes a refusal)', {}, mallory);
    // jcp §4.4: a leaf-only grant cannot be delegated (the grandchild is depth 0 under a depth-2 root)
    await m.attempt('under a leaf-only grant (owes a refusal)', m.impl.attenuate(grandchild, dave.seed, { subject: mallory.did, nonce: nonce('c2:under-leaf') }));
  },
  cases: [
    verifyCase('the child verifies', 'child'),
    verifyCase('the grandchild verifies', 'grandchild'),
    {
      name: 'decide: the two- and three-link chains allow read and debit every link',
      async run(r) {
        const [root, child, grandchild] = [r.bytes('root'), r.present('child', r.bytes('child')), r.bytes('grandchild')];
        const p = await newPoint(r);
        await decide(r, p, 'decide [root, child] read', [root, child], { caller: carol, action: 'read', uj: 100n });
        await decide(r, p, 'decide [root, child, grandchild] read', [root, child, grandchild], { caller: dave, action: 'read', uj: 50n });
        await decide(r, p, 'decide [root, child] call (not in the child)', [root, child], { caller: carol, action: 'call' });
        await decide(r, p, 'decide [root, child, grandchild] past the grandchild', [root, child, grandchild], { caller: dave, action: 'read', uj: 51n });
        for (const [n, b] of [['root', root], ['child', child], ['grandchild', grandchild]] as const) await spent(r, p, n, b);
      },
    },
    {
      name: 'decide: a delegated grant alone is chain-broken',
      async run(r) {
        const child = r.present('child', r.bytes('child'));
        await decide(r, await newPoint(r), 'decide [child]', [child], { caller: carol, action: 'read' });
      },
    },
    {
      name: 'decide: an amplifying child re-signed by its holder is attenuation-violation',
      async run(r) {
        const root = r.bytes('root');
        const amp = r.present('child, budget 2000, signed by bob', resigned(r.bytes('child'), bob, { budget_uj: 2000n }));
        const p = await newPoint(r);
        await decide(r, p, 'decide [root, amplified child]', [root, amp], { caller: carol, action: 'read' });
        await spent(r, p, 'root', root);
      },
    },
    {
      name: 'decide: a child signed by a wrong key is bad-signature; one issued by a stranger is chain-broken',
      async run(r) {
        const root = r.bytes('root');
        const child = r.bytes('child');
        const p = await newPoint(r);
        const sg = grantOf(child);
        const wrongKey = r.present('child, signed by mallory', encodeSigned({ grant: sg.grant, signature: defaultEd25519().sign(mallory.seed, grantBytes(sg.grant)) }));
        await decide(r, p, 'decide [root, child signed by mallory]', [root, wrongKey], { caller: carol, action: 'read' });
        // narrowing in every other respect: a link both structurally broken and amplifying could be named either way
        const stranger = resigned(child, mallory, { issuer: mallory.did });
        await decide(r, p, 'decide [root, child issued by mallory]', [root, stranger], { caller: carol, action: 'read' });
      },
    },
    {
      name: 'decide: a hop under a leaf-only grant is chain-broken',
      async run(r) {
        const [root, child, grandchild] = [r.bytes('root'), r.bytes('child'), r.bytes('grandchild')];
        const g = grantOf(grandchild).grant;
        const under = r.present('a hop under the grandchild', resigned(grandchild, dave, { issuer: dave.did, subject: mallory.did, parent: grantId(g), nonce: nonce('c2:raw-under'), delegate_depth: 0n }));
        await decide(r, await newPoint(r), 'decide [root, child, grandchild, under]', [root, child, grandchild, under], { caller: mallory, action: 'read' });
      },
    },
  ],
};

const C3: Scenario = {
  cls: 'jcp:C3',
  title: 'budget enforcement: no spend past the ceiling, no debit on deny (jcp §7)',
  async produce(m) {
    await m.grant('root', mintRoot(m.impl, 'c3:root'));
  },
  cases: [
    {
      name: 'spend to the ceiling and past it',
      async run(r) {
        const root = r.present('root', r.bytes('root'));
        const p = await newPoint(r);
        for (const [i, uj] of [600n, 600n, 400n, 1n].entries()) {
          await decide(r, p, `decide #${i + 1} costing ${uj} µJ`, [root], { caller: bob, uj });
          await spent(r, p, 'root', root);
        }
      },
    },
    {
      name: 'a denied call debits nothing, whatever the reason',
      async run(r) {
        const root = r.present('root', r.bytes('root'));
        const p = await newPoint(r);
        await decide(r, p, 'decide past the ceiling in one step', [root], { caller: bob, uj: 1001n });
        await spent(r, p, 'root', root);
        await decide(r, p, 'decide as mallory', [root], { caller: mallory, uj: 100n });
        await spent(r, p, 'root', root);
        await decide(r, p, 'decide delete', [root], { caller: bob, action: 'delete', uj: 100n });
        await spent(r, p, 'root', root);
        await decide(r, p, 'decide a data-tagged frame', [root], { caller: bob, uj: 100n, frame: { trust: 'data' } });
        await spent(r, p, 'root', root);
        await decide(r, p, 'decide within the ceiling', [root], { caller: bob, uj: 1000n });
        await spent(r, p, 'root', root);
      },
    },
  ],
};

/** Produces receipts at the producer's own point: allow, two denials, and a chained allow. */
async function produceReceipts(m: Maker): Promise<void> {
  const root = await m.grant('root', mintRoot(m.impl, 'c5:root'));
  const child = await m.grant('child', m.impl.attenuate(root, bob.seed, { subject: carol.did, budget_uj: 500n, nonce: nonce('c5:child') }));
  const p = await m.use('point.new', m.impl.newPoint(steward.seed));
  const frame = (leaf: Uint8Array, over: Partial<FrameFields> = {}): FrameFields => ({
    kind: 'tool-call',
    trust: 'control',
    grant_id: m.objects.get(leaf === root ? 'root.grant_id' : 'child.grant_id') as string,
    action: 'call',
    resource: TOOL,
    payload_hash: payload('args'),
    ...over,
  });
  const at = (chain: Uint8Array[], caller: KeyPair, uj: bigint, over: Partial<FrameFields> = {}, provenance = 'HwShunt') =>
    p.decide({ frame: frame(chain[chain.length - 1]!, over), chain, caller: caller.did, cost: { uj, provenance }, now_s: NOW }).then((d) => d.receipt);
  await m.bytes('allow-receipt', at([root], bob, 42n));
  await m.bytes('deny-receipt', at([root], bob, 42n, { action: 'delete' }));
  await m.bytes('budget-deny-receipt', at([root], bob, 5000n, {}, 'Estimator'));
  await m.bytes('chain-receipt', at([root, child], carol, 10n, {}, 'ModelBased'));
}

const C5: Scenario = {
  cls: 'jcp:C5',
  title: 'the receipt: every decision seals and verifies; a wrong steward fails (jcp §8, §8.1)',
  produce: produceReceipts,
  cases: [
    receiptCase('the allow receipt verifies under its steward', 'allow-receipt', steward.did),
    receiptCase('the allow receipt verifies naming no steward', 'allow-receipt', undefined),
    receiptCase('the deny receipt verifies', 'deny-receipt', steward.did),
    receiptCase('the budget-exceeded receipt verifies', 'budget-deny-receipt', steward.did),
    receiptCase('the chained receipt verifies and names its chain', 'chain-receipt', steward.did),
    receiptCase('a wrong steward fails', 'allow-receipt', mallory.did),
    receiptCase('a deny receipt under a wrong steward fails', 'deny-receipt', mallory.did),
    receiptCase('a flipped signature bit fails', 'allow-receipt', steward.did, (b) => {
      const s = sign1Of(b);
      const sig = s.signature.slice();
      sig[0]! ^= 0x80;
      return envelope(s.protectedBytes, s.payload, sig);
    }),
    receiptCase('a truncated receipt is refused', 'allow-receipt', steward.did, (b) => b.subarray(0, b.length - 1)),
  ],
};

const C23: Scenario = {
  cls: 'jcp:C23',
  title: 'the receipt binds its payload; jcp/1 receipts still verify (jcp §8)',
  async produce(m) {
    const root = await m.grant('root', mintRoot(m.impl, 'c23:root'));
    const p = await m.use('point.new', m.impl.newPoint(steward.seed));
    const over = (h: string) =>
      p
        .decide({ frame: { kind: 'tool-call', trust: 'control', grant_id: m.objects.get('root.grant_id') as string, action: 'call', resource: TOOL, payload_hash: h }, chain: [root], caller: bob.did, cost: { uj: 7n, provenance: 'Estimator' }, now_s: NOW })
        .then((d) => d.receipt);
    await m.bytes('receipt-args', over(payload('args')));
    await m.bytes('receipt-other', over(payload('other')));
  },
  cases: [
    receiptCase('the receipt over the arguments verifies', 'receipt-args', steward.did),
    receiptCase('the receipt over other arguments verifies', 'receipt-other', steward.did),
    receiptCase('a payload substituted under the old signature fails', 'receipt-args', steward.did, (b) =>
      substituted(b, (core) => {
        core.set('payload_hash', payload('substituted'));
      }),
    ),
    // (not payload_hash removed under the old signature: that core is both malformed and mis-signed, and the spec
    // names no order between the two refusals)
    receiptCase('the same decision published as jcp/1 still verifies', 'receipt-args', steward.did, (b) =>
      resealed(b, (core) => {
        core.delete('payload_hash');
        core.set('jcp_receipt', 'jcp/1');
      }),
    ),
    receiptCase('a profile the verifier does not implement is refused', 'receipt-args', steward.did, (b) =>
      resealed(b, (core) => {
        core.set('jcp_receipt', 'jcp/9');
      }),
    ),
  ],
};

const C6: Scenario = {
  cls: 'jcp:C6',
  title: 'revocation: only the issuer revokes; the subtree dies; a forgery is never admitted (jcp §4.3)',
  async produce(m) {
    const root = await m.grant('root', mintRoot(m.impl, 'c6:root'));
    await m.grant('child', m.impl.attenuate(root, bob.seed, { subject: carol.did, budget_uj: 500n, nonce: nonce('c6:child') }));
    const rootId = m.objects.get('root.grant_id') as string;
    await m.bytes('rev-root', m.impl.mintRevocation(alice.seed, rootId, nonce('c6:rev-root')));
    await m.bytes('rev-child', m.impl.mintRevocation(bob.seed, m.objects.get('child.grant_id') as string, nonce('c6:rev-child')));
    await m.bytes('rev-by-mallory', m.impl.mintRevocation(mallory.seed, rootId, nonce('c6:rev-mallory')));
    await m.bytes('rev-by-holder', m.impl.mintRevocation(bob.seed, rootId, nonce('c6:rev-holder')));
  },
  cases: [
    {
      name: "the issuer's revocation of the root kills both paths",
      async run(r) {
        const [root, child] = [r.bytes('root'), r.bytes('child')];
        const p = await newPoint(r);
        await r.say('point.revoke', p.revoke(r.present('rev-root', r.bytes('rev-root')), root), () => 'admitted');
        await decide(r, p, 'decide [root]', [root], { caller: bob });
        await decide(r, p, 'decide [root, child]', [root, child], { caller: carol });
        await spent(r, p, 'root', root);
      },
    },
    {
      name: 'a revoked child kills its subtree and leaves the root live',
      async run(r) {
        const [root, child] = [r.bytes('root'), r.bytes('child')];
        const p = await newPoint(r);
        await r.say('point.revoke', p.revoke(r.present('rev-child', r.bytes('rev-child')), child), () => 'admitted');
        await decide(r, p, 'decide [root, child]', [root, child], { caller: carol });
        await decide(r, p, 'decide [root]', [root], { caller: bob });
      },
    },
    ...(
      [
        ["a stranger's revocation is refused and changes nothing", 'rev-by-mallory', (b: Uint8Array) => b],
        ['the holder is not the issuer', 'rev-by-holder', (b: Uint8Array) => b],
        [
          'a tampered revocation signature is refused',
          'rev-root',
          (b: Uint8Array) => {
            const sr = derive('a signed revocation', () => parseSignedRevocation(decodeCanonical(b)));
            const sig = sr.signature.slice();
            sig[5]! ^= 4;
            return encodeCanonical(signedRevocationToCbor({ revocation: sr.revocation, signature: sig }));
          },
        ],
      ] as const
    ).map(
      ([name, rev, alter]): InteropCase => ({
        name,
        async run(r) {
          const root = r.bytes('root');
          const p = await newPoint(r);
          await r.say('point.revoke', p.revoke(r.present(rev, alter(r.bytes(rev))), root), () => 'admitted');
          await decide(r, p, 'decide [root]', [root], { caller: bob });
        },
      }),
    ),
    {
      name: 'a revocation presented with another grant is refused',
      async run(r) {
        const p = await newPoint(r);
        await r.say('point.revoke', p.revoke(r.present('rev-root', r.bytes('rev-root')), r.bytes('child')), () => 'admitted');
        await decide(r, p, 'decide [root, child]', [r.bytes('root'), r.bytes('child')], { caller: carol });
      },
    },
  ],
};

const ONLY_READ = { ActionIn: ['read'] };

const C7: Scenario = {
  cls: 'jcp:C7',
  title: 'chain conservation, hop-by-hop verification, inherited caveats (jcp §4.2, §4.9)',
  async produce(m) {
    const root = await m.grant('root', mintRoot(m.impl, 'c7:root', { expiry: 5000n }));
    const mid = await m.grant('mid', m.impl.attenuate(root, bob.seed, { subject: carol.did, budget_uj: 800n, nonce: nonce('c7:mid') }));
    await m.grant('leaf', m.impl.attenuate(mid, carol.seed, { subject: dave.did, budget_uj: 500n, nonce: nonce('c7:leaf') }));
    await m.grant('sib-carol', m.impl.attenuate(root, bob.seed, { subject: carol.did, budget_uj: 800n, nonce: nonce('c7:sib1') }));
    await m.grant('sib-dave', m.impl.attenuate(root, bob.seed, { subject: dave.did, budget_uj: 800n, nonce: nonce('c7:sib2') }));
    const cavRoot = await m.grant('cav-root', mintRoot(m.impl, 'c7:cav-root', { caveats: [ONLY_READ] }));
    // jcp §4.9: attenuation inherits every parent caveat and refuses to drop one
    await m.grant('cav-child', m.impl.attenuate(cavRoot, bob.seed, { subject: carol.did, nonce: nonce('c7:cav-child') }));
    await m.grant('cav-added', m.impl.attenuate(cavRoot, bob.seed, { subject: carol.did, add_caveats: [{ PayloadIs: payload('args') }], nonce: nonce('c7:cav-added') }));
  },
  cases: [
    {
      name: 'a three-link chain is allowed and debits every link',
      async run(r) {
        const [root, mid, leaf] = [r.bytes('root'), r.bytes('mid'), r.present('leaf', r.bytes('leaf'))];
        const p = await newPoint(r);
        await decide(r, p, 'decide [root, mid, leaf]', [root, mid, leaf], { caller: dave, uj: 100n });
        for (const [n, b] of [['root', root], ['mid', mid], ['leaf', leaf]] as const) await spent(r, p, n, b);
      },
    },
    {
      name: 'spliced, reordered and badly signed chains are denied',
      async run(r) {
        const [root, mid, leaf] = [r.bytes('root'), r.bytes('mid'), r.present('leaf', r.bytes('leaf'))];
        const p = await newPoint(r);
        await decide(r, p, 'decide [root, leaf] (middle link missing)', [root, leaf], { caller: dave });
        await decide(r, p, 'decide [mid, root, leaf] (out of order)', [mid, root, leaf], { caller: dave });
        await decide(r, p, 'decide [root, mid with a flipped signature, leaf]', [root, flipGrantSignature(mid), leaf], { caller: dave });
        await decide(r, p, 'decide [root, mid, leaf] as mallory', [root, mid, leaf], { caller: mallory });
        await spent(r, p, 'root', root);
      },
    },
    {
      name: "siblings share their root's budget",
      async run(r) {
        const [root, s1, s2] = [r.bytes('root'), r.present('sib-carol', r.bytes('sib-carol')), r.bytes('sib-dave')];
        const p = await newPoint(r);
        await decide(r, p, 'decide [root, sib-carol] 600', [root, s1], { caller: carol, uj: 600n });
        await decide(r, p, 'decide [root, sib-dave] 600', [root, s2], { caller: dave, uj: 600n });
        await decide(r, p, 'decide [root, sib-dave] 400', [root, s2], { caller: dave, uj: 400n });
        for (const [n, b] of [['root', root], ['sib-carol', s1], ['sib-dave', s2]] as const) await spent(r, p, n, b);
      },
    },
    {
      name: "a chained decision enforces the root's inherited caveat",
      async run(r) {
        const [root, child] = [r.bytes('cav-root'), r.present('cav-child', r.bytes('cav-child'))];
        const p = await newPoint(r);
        await decide(r, p, 'decide call', [root, child], { caller: carol, action: 'call' });
        await decide(r, p, 'decide read', [root, child], { caller: carol, action: 'read' });
      },
    },
    {
      name: 'a child that dropped the caveat does not verify as a chain',
      async run(r) {
        const root = r.bytes('cav-root');
        const stripped = r.present('cav-child without caveats, signed by bob', resigned(r.bytes('cav-child'), bob, {}, ['caveats']));
        await decide(r, await newPoint(r), 'decide read', [root, stripped], { caller: carol, action: 'read' });
      },
    },
    {
      name: 'an added caveat binds beside the inherited one',
      async run(r) {
        const [root, added] = [r.bytes('cav-root'), r.present('cav-added', r.bytes('cav-added'))];
        const p = await newPoint(r);
        await decide(r, p, 'decide read over the arguments', [root, added], { caller: carol, action: 'read' });
        await decide(r, p, 'decide read over other arguments', [root, added], { caller: carol, action: 'read', frame: { payload_hash: payload('other') } });
        await decide(r, p, 'decide call over the arguments', [root, added], { caller: carol, action: 'call' });
      },
    },
  ],
};

const C11: Scenario = {
  cls: 'jcp:C11',
  title: 'sharded budgets: slices within the parent, each enforced locally (jcp §4.5)',
  async produce(m) {
    const root = await m.grant('root', mintRoot(m.impl, 'c11:root'));
    const slices = await m.use(
      'slices',
      m.impl.shard(root, bob.seed, [
        { subject: carol.did, budget_uj: 600n, nonce: nonce('c11:s1') },
        { subject: dave.did, budget_uj: 400n, nonce: nonce('c11:s2') },
      ]),
    );
    slices.forEach((s, i) => {
      m.objects.set(`slice-${i + 1}`, s.signed_grant);
      m.objects.set(`slice-${i + 1}.grant_id`, s.grant_id);
    });
    // jcp §4.5: "A conforming sharding operation MUST refuse slices that sum past the parent."
    await m.attempt(
      'slices past the parent (owes a refusal)',
      m.impl.shard(root, bob.seed, [
        { subject: carol.did, budget_uj: 600n, nonce: nonce('c11:o1') },
        { subject: dave.did, budget_uj: 401n, nonce: nonce('c11:o2') },
      ]),
    );
  },
  cases: [
    verifyCase('slice 1 verifies', 'slice-1'),
    verifyCase('slice 2 verifies', 'slice-2'),
    {
      name: 'each slice is enforced at its own point',
      async run(r) {
        const [root, s1, s2] = [r.bytes('root'), r.present('slice-1', r.bytes('slice-1')), r.bytes('slice-2')];
        const p1 = await newPoint(r);
        await decide(r, p1, 'point 1: decide [root, slice-1] 600', [root, s1], { caller: carol, uj: 600n });
        await decide(r, p1, 'point 1: decide [root, slice-1] 1 more', [root, s1], { caller: carol, uj: 1n });
        const p2 = await newPoint(r);
        await decide(r, p2, 'point 2: decide [root, slice-2] 401', [root, s2], { caller: dave, uj: 401n });
        await decide(r, p2, 'point 2: decide [root, slice-2] 400', [root, s2], { caller: dave, uj: 400n });
        await spent(r, p1, 'slice-1 at point 1', s1);
        await spent(r, p2, 'slice-2 at point 2', s2);
      },
    },
  ],
};

const CNEG: Scenario = {
  cls: 'jcp:C-neg',
  title: 'non-canonical encodings are refused, never repaired (jcp §3, §11)',
  async produce(m) {
    await m.grant('root', mintRoot(m.impl, 'cneg:root'));
  },
  cases: [
    canonicalCase('the canonical grant comes back byte for byte', 'root', (b) => b),
    canonicalCase('a widened map head', 'root', widenedMapHead),
    canonicalCase('a widened integer (budget_uj in four bytes)', 'root', widenedBudget),
    canonicalCase('an indefinite-length map', 'root', indefiniteMap),
    canonicalCase('keys out of order', 'root', keysOutOfOrder),
    canonicalCase('a duplicate key', 'root', duplicateKey),
    canonicalCase('a trailing byte', 'root', (b) => concatBytes(b, Uint8Array.of(0x00))),
  ],
};

/** Every scenario, in the order reports list them. */
export const SCENARIOS: readonly Scenario[] = [C1, C2, C3, C5, C6, C7, C11, C23, CNEG];
