// The named cases of conformance/v1 (jcp §3, §4, §4.1–§4.4, §4.9, §7, §8, §8.1): what each vector feeds an
// implementation and the outcome the spec requires of it (its intent). Inputs are built here from fixed seeds
// (impl/identity deriveSeed), fixed nonces and fixed clocks with the reference; the generator (vectors/gen.ts) runs
// each through the in-process reference, refuses to publish a case whose observed outcome is not its intent, and
// records the observed bytes. A case's name is its identity: vectors/tcids.json maps it to a tcId forever.
import { fromHex, toHex } from '../impl/bytes.ts';
import { cborTag, encodeCanonical, decodeCanonical, type CborValue } from '../impl/cbor/index.ts';
import { blake3 } from '../impl/hash/blake3.ts';
import { deriveSeed, keyPairFromSeed, defaultEd25519, type KeyPair } from '../impl/identity/ed25519.ts';
import { contentId } from '../impl/jcp/content-id.ts';
import { signedGrantToCbor, signedRevocationToCbor, caveatToCbor } from '../impl/jcp/codec.ts';
import { grantBytes, grantId, mintGrant, signGrant } from '../impl/jcp/grant.ts';
import { attenuate } from '../impl/jcp/attenuate.ts';
import { mintRevocation } from '../impl/jcp/revocation.ts';
import { createEnforcementPoint } from '../impl/jcp/enforcement-point.ts';
import type { Caveat, Frame, Funds, Grant, SignedGrant } from '../impl/jcp/types.ts';
import { signSign1 } from '../impl/cose/sign1.ts';
import { stewardKid } from '../impl/receipt/seal.ts';
import type { GroupType, Json, JsonObject, PackArea } from './model.ts';
import { promotedCases } from './promoted.ts';
import { jcCases } from './jc-cases.ts';
import { profileCases } from './p-cases.ts';
import { signedStatementToCbor, statementBytes, type Statement } from '../impl/jcp/channel.ts';
import { authorMintPolicy, eventClassId, mintPolicyBytes, signedMintPolicyToCbor, type MintPolicy } from '../impl/jcp/standing.ts';

/** The outcome a case requires: a refusal code, a grant verdict, the verdicts of a decision's steps, or success. */
export type Intent =
  | { readonly error: string }
  | { readonly verdict: 'valid' | 'invalid' }
  | { readonly steps: ReadonlyArray<{ readonly verdict: 'allow' | 'deny'; readonly deny_reason?: string }>; readonly revocations?: readonly string[] }
  | { readonly ok: true }
  | { readonly firings: ReadonlyArray<'minted' | string>; readonly ledger: { readonly firings: number; readonly cumulative_uj: number } }
  | { readonly ops: readonly string[]; readonly totals: readonly number[]; readonly overdraft_uj?: number }
  /** efficiency.json: outputs the spec fixes (each path's value; dotted paths), and paths that must be absent. */
  | { readonly outputs: Readonly<Record<string, Json>>; readonly absent?: readonly string[] }
  /** a promoted OpSequence (vectors/promoted.ts): the reference's projected observations recorded at promotion. */
  | { readonly sequence: readonly Json[] }
  /** profiles.json: the whole expected answer, derived from the spec's words (vectors/p-cases.ts), and the vector's result. */
  | { readonly exactly: JsonObject; readonly result: 'valid' | 'invalid' };

/** One named case. */
export interface Case {
  readonly pack: PackArea;
  readonly name: string;
  readonly type: GroupType;
  readonly comment: string;
  readonly flags: readonly string[];
  readonly clauses: readonly string[];
  readonly inputs: JsonObject;
  readonly intent: Intent;
  /** Decide only: publish each step's exact receipt bytes (receipts.json). */
  readonly pinReceipt?: boolean;
}

// ---- fixed material --------------------------------------------------------------------------------------------------

const utf8 = new TextEncoder();
const key = (label: string): KeyPair => keyPairFromSeed(deriveSeed(`jcp-vectors/v1:${label}`));
const nonce = (label: string): Uint8Array => blake3(utf8.encode(`jcp-vectors/v1 nonce:${label}`)).slice(0, 16);
const resource = (label: string): string => contentId({ resource: label });
const payload = (label: string): string => contentId({ payload: label });

const alice = key('alice'); // a root issuer
const bob = key('bob'); // the root's holder
const carol = key('carol'); // a delegate
const dave = key('dave'); // a further delegate
const mallory = key('mallory'); // an attacker
const steward = key('steward'); // seals receipts
const TOOL = resource('tool:search');
const OTHER = resource('tool:other');
const ARGS = payload('args');
const MODEL = payload('model-a');
const NOW = 1000;

const sgBytes = (sg: SignedGrant): Uint8Array => encodeCanonical(signedGrantToCbor(sg));
const sgHex = (sg: SignedGrant): string => toHex(sgBytes(sg));
const gid = (sg: SignedGrant): string => grantId(sg.grant);

/** A caveat as pack JSON (integers as numbers). */
function caveatJson(c: Caveat): Json {
  const j = (v: unknown): Json => (typeof v === 'bigint' ? Number(v) : Array.isArray(v) ? v.map(j) : (v as Json));
  const [k, v] = Object.entries(caveatToCbor(c) as Record<string, unknown>)[0]!;
  return { [k]: j(v) };
}

interface RootSpec {
  readonly subject?: KeyPair;
  readonly actions?: readonly string[];
  readonly budget_uj?: bigint;
  readonly expiry?: bigint;
  readonly caveats?: readonly Caveat[];
  readonly delegate_depth?: bigint;
  readonly resource?: string;
  readonly budget_funds?: Funds;
}

/** A root grant from alice (unless `issuer`) to bob over TOOL, 1000 µJ, actions call and read, never expiring. */
function root(label: string, s: RootSpec = {}, issuer: KeyPair = alice): SignedGrant {
  return mintGrant(issuer, {
    subject: (s.subject ?? bob).did,
    resource: s.resource ?? TOOL,
    actions: s.actions ?? ['call', 'read'],
    budget_uj: s.budget_uj ?? 1000n,
    expiry: s.expiry ?? 0n,
    nonce: nonce(label),
    ...(s.caveats ? { caveats: s.caveats } : {}),
    ...(s.delegate_depth !== undefined ? { delegate_depth: s.delegate_depth } : {}),
    ...(s.budget_funds ? { budget_funds: s.budget_funds } : {}),
  });
}

/** The GrantMint inputs that mint `root(label, s, issuer)`. */
function mintInputs(label: string, s: RootSpec = {}, issuer: KeyPair = alice): JsonObject {
  return {
    issuer_seed: toHex(issuer.seed),
    grant: {
      subject: (s.subject ?? bob).did,
      resource: s.resource ?? TOOL,
      actions: [...(s.actions ?? ['call', 'read'])],
      budget_uj: Number(s.budget_uj ?? 1000n),
      expiry: Number(s.expiry ?? 0n),
      nonce: toHex(nonce(label)),
      ...(s.caveats ? { caveats: s.caveats.map(caveatJson) } : {}),
      ...(s.delegate_depth !== undefined ? { delegate_depth: Number(s.delegate_depth) } : {}),
      ...(s.budget_funds ? { budget_funds: fundsJson(s.budget_funds) } : {}),
    },
  };
}

/** jcp §4.8 a money amount as pack JSON. */
const fundsJson = (f: Funds): JsonObject => ({ currency: f.currency, minor: Number(f.minor) });

/** Signs a child of `parent` exactly as given, bypassing attenuation's checks: how an attacker presents a chain. */
function rawChild(parent: SignedGrant, signer: KeyPair, label: string, over: Partial<Grant> = {}, drop: ReadonlyArray<keyof Grant> = []): SignedGrant {
  const p = parent.grant;
  const g: Record<string, unknown> = {
    issuer: signer.did,
    subject: carol.did,
    capability: p.capability,
    budget_uj: p.budget_uj,
    expiry: p.expiry,
    parent: grantId(p),
    nonce: nonce(label),
    ...(p.caveats ? { caveats: p.caveats } : {}),
    ...over,
  };
  for (const k of drop) delete g[k];
  return signGrant(g as unknown as Grant, signer);
}

/** `sg` with one bit of its signature flipped. */
function flippedSignature(sg: SignedGrant, at = 63): SignedGrant {
  const sig = sg.signature.slice();
  sig[at]! ^= 0x01;
  return { grant: sg.grant, signature: sig };
}

interface Step {
  readonly chain: readonly SignedGrant[];
  readonly caller: KeyPair;
  readonly frame?: Partial<Frame>;
  readonly cost_uj?: bigint;
  readonly provenance?: string;
  readonly coverage?: 'Partial';
  readonly now_s?: number;
  readonly cost_funds?: Funds;
}

/** A decision request as pack JSON: a control tool-call frame over the leaf's grant, action call, payload ARGS. */
function stepJson(s: Step): JsonObject {
  const leaf = s.chain[s.chain.length - 1]!;
  const frame: Frame = { kind: 'tool-call', trust: 'control', grant_id: gid(leaf), action: 'call', resource: leaf.grant.capability.resource, payload_hash: ARGS, ...s.frame };
  return {
    frame: { ...frame } as unknown as JsonObject,
    chain: s.chain.map(sgHex),
    caller: s.caller.did,
    cost: { uj: Number(s.cost_uj ?? 10n), provenance: s.provenance ?? 'Estimator', ...(s.coverage ? { coverage: s.coverage } : {}) },
    now_s: s.now_s ?? NOW,
    ...(s.cost_funds ? { cost_funds: fundsJson(s.cost_funds) } : {}),
  };
}

interface DecideSpec {
  readonly steps: readonly Step[];
  readonly trust_roots?: Record<string, readonly KeyPair[]>;
  readonly revocations?: ReadonlyArray<{ readonly revoker: KeyPair; readonly of: SignedGrant; readonly label: string; readonly id?: string }>;
}

/** Decide inputs: a fresh point sealing with the steward key. */
function decideInputs(d: DecideSpec): JsonObject {
  return {
    steward_seed: toHex(steward.seed),
    ...(d.trust_roots ? { trust_roots: Object.fromEntries(Object.entries(d.trust_roots).map(([r, ks]) => [r, ks.map((k) => k.did)])) } : {}),
    ...(d.revocations
      ? {
          revocations: d.revocations.map((r) => ({
            signed_revocation: toHex(encodeCanonical(signedRevocationToCbor(mintRevocation(r.revoker, r.id ?? gid(r.of), nonce(r.label))))),
            grant: sgHex(r.of),
          })),
        }
      : {}),
    steps: d.steps.map(stepJson),
  };
}

const allow = { verdict: 'allow' } as const;
const deny = (deny_reason: string) => ({ verdict: 'deny', deny_reason }) as const;

// ---- grants.json: canonical grant bytes, content ids, signatures; malformed grants refused -----------------------------

function grantCases(): Case[] {
  const G = (name: string, comment: string, flags: string[], clauses: string[], inputs: JsonObject, intent: Intent, type: GroupType = 'GrantMint'): Case => ({
    pack: 'grants',
    name,
    type,
    comment,
    flags,
    clauses,
    inputs,
    intent,
  });
  const idClauses = ['jcp/4#grant-id-and-signature', 'jcp/3#content-id-blake3', 'jcp/3#canonical-det-cbor', 'jcp/3#key-order-length-first'];
  const basic = root('grant-basic');
  const cases: Case[] = [
    G('mint-basic', 'a root grant: canonical bytes, id = blake3 of them, Ed25519 signature of the issuer', ['Canonical'], [...idClauses, 'jcp/4#absent-optional-omitted'], mintInputs('grant-basic'), { ok: true }),
    G('mint-expiry', 'a root grant with an expiry', ['Canonical'], idClauses, mintInputs('grant-expiry', { expiry: 5000n }), { ok: true }),
    G('mint-one-action', 'a root grant with a single action', ['Canonical'], idClauses, mintInputs('grant-one-action', { actions: ['read'] }), { ok: true }),
    G('mint-depth-0', 'a leaf-only root grant: delegate_depth 0 is encoded, not omitted', ['Canonical'], [...idClauses, 'jcp/4.4#may-carry-delegate-depth'], mintInputs('grant-depth-0', { delegate_depth: 0n }), { ok: true }),
    G('mint-depth-2', 'a root grant permitting two further hops', ['Canonical'], [...idClauses, 'jcp/4.4#may-carry-delegate-depth'], mintInputs('grant-depth-2', { delegate_depth: 2n }), { ok: true }),
    G('mint-budget-23', 'budget 23: the largest integer in the initial byte', ['Canonical', 'IntegerBoundary'], [...idClauses, 'jcp/3#shortest-integer-form'], mintInputs('grant-b23', { budget_uj: 23n }), { ok: true }),
    G('mint-budget-24', 'budget 24: the smallest integer needing one more byte', ['Canonical', 'IntegerBoundary'], [...idClauses, 'jcp/3#shortest-integer-form'], mintInputs('grant-b24', { budget_uj: 24n }), { ok: true }),
    G('mint-budget-65536', 'budget 2^16: a four-byte argument', ['Canonical', 'IntegerBoundary'], [...idClauses, 'jcp/3#shortest-integer-form'], mintInputs('grant-b65536', { budget_uj: 65536n }), { ok: true }),
    G('mint-budget-2^32', 'budget 2^32: an eight-byte argument', ['Canonical', 'IntegerBoundary'], [...idClauses, 'jcp/3#shortest-integer-form'], mintInputs('grant-b2p32', { budget_uj: 4294967296n }), { ok: true }),
    G('mint-budget-0', 'budget 0 is a grant that can spend nothing, and is still well formed', ['Canonical', 'IntegerBoundary'], [...idClauses, 'jcp/3#shortest-integer-form'], mintInputs('grant-b0', { budget_uj: 0n }), { ok: true }),
    G('mint-subject-not-did', 'a subject that is not a did:key is refused', ['Malformed', 'SuiteErrorCode'], ['jcp/2#actor-is-ed25519-did-key', 'jcp/4#grant-id-and-signature'], { ...mintInputs('grant-bad-subject'), grant: { ...(mintInputs('grant-bad-subject')['grant'] as JsonObject), subject: 'did:key:nope' } }, { error: 'ERR_GRANT_MALFORMED' }),
    G('mint-resource-url', 'a resource named by URL, not by content, is refused', ['Malformed', 'SuiteErrorCode'], ['jcp/4#resource-by-content'], { ...mintInputs('grant-url'), grant: { ...(mintInputs('grant-url')['grant'] as JsonObject), resource: 'https://tool.example/search' } }, { error: 'ERR_GRANT_MALFORMED' }),
    G('mint-resource-uppercase', 'a resource id in upper-case hex is refused: content ids are lowercase hex on the wire', ['Malformed', 'SuiteErrorCode'], ['jcp/4#resource-by-content', 'jcp/3#content-id-blake3'], { ...mintInputs('grant-upper'), grant: { ...(mintInputs('grant-upper')['grant'] as JsonObject), resource: TOOL.toUpperCase() } }, { error: 'ERR_GRANT_MALFORMED' }),
    G('mint-nonce-15', 'a 15-byte nonce is refused: nonce is bytes(16)', ['Malformed', 'SuiteErrorCode'], ['jcp/4#grant-id-and-signature'], { ...mintInputs('grant-n15'), grant: { ...(mintInputs('grant-n15')['grant'] as JsonObject), nonce: toHex(nonce('grant-n15').slice(0, 15)) } }, { error: 'ERR_GRANT_MALFORMED' }),
    G('verify-basic', 'the signed grant of mint-basic verifies under its issuer', ['Canonical'], ['jcp/4#grant-id-and-signature', 'jcp/2#actor-proves-by-signing'], { signed_grant: sgHex(basic) }, { verdict: 'valid' }, 'GrantVerify'),
    G('verify-flipped-signature', 'one bit of the signature flipped: the grant does not verify', ['ModifiedSignature'], ['jcp/4#grant-id-and-signature', 'jcp/2#actor-proves-by-signing'], { signed_grant: sgHex(flippedSignature(basic)) }, { verdict: 'invalid' }, 'GrantVerify'),
    G('verify-signed-by-other-key', "a grant naming alice as issuer but signed by mallory does not verify", ['ModifiedSignature'], ['jcp/4#grant-id-and-signature', 'jcp/2#actor-proves-by-signing'], { signed_grant: sgHex({ grant: basic.grant, signature: defaultEd25519().sign(mallory.seed, grantBytes(basic.grant)) }) }, { verdict: 'invalid' }, 'GrantVerify'),
    G('verify-changed-budget', 'the budget raised after signing: the signature no longer covers the grant', ['ModifiedGrant'], ['jcp/4#grant-id-and-signature'], { signed_grant: sgHex({ grant: { ...basic.grant, budget_uj: 1001n }, signature: basic.signature }) }, { verdict: 'invalid' }, 'GrantVerify'),
    G('verify-trailing-byte', 'a signed grant followed by one more byte is refused', ['Malformed', 'SuiteErrorCode'], ['jcp/3#canonical-det-cbor'], { signed_grant: `${sgHex(basic)}00` }, { error: 'ERR_CBOR_TRAILING_BYTES' }, 'GrantVerify'),
    G('verify-empty-caveats', 'caveats: [] encoded rather than omitted is not the canonical grant and is refused', ['Malformed', 'SuiteErrorCode'], ['jcp/4#absent-optional-omitted', 'jcp/4.9#grant-may-carry-caveats'], { signed_grant: toHex(withGrantField(basic, 'caveats', [])) }, { error: 'ERR_GRANT_MALFORMED' }, 'GrantVerify'),
    G('verify-null-parent', 'an absent optional field encoded as null is refused', ['Malformed', 'SuiteErrorCode'], ['jcp/4#absent-optional-omitted', 'jcp/3#no-float-bool-null'], { signed_grant: toHex(withGrantField(basic, 'parent', null)) }, { error: 'ERR_CBOR_SIMPLE_VALUE' }, 'GrantVerify'),
  ];
  return cases;
}

/** The signed grant's bytes with `field` of its grant set to `v` (the signature left as it was). */
function withGrantField(sg: SignedGrant, field: string, v: CborValue | null): Uint8Array {
  const m = decodeCanonical(sgBytes(sg)) as Map<string, CborValue>;
  const g = new Map(m.get('grant') as Map<string, CborValue>);
  if (v !== null) {
    g.set(field, v);
    return encodeCanonical(new Map([...m, ['grant', g]]));
  }
  // null cannot be encoded by the canonical writer: encode a unique text marker, then splice CBOR null (0xf6) in its place
  const marker = 'null-marker-jcp-vectors';
  g.set(field, marker);
  const b = encodeCanonical(new Map([...m, ['grant', g]]));
  const enc = encodeCanonical(marker);
  const hexB = toHex(b);
  const at = hexB.indexOf(toHex(enc));
  if (at < 0 || at % 2 !== 0) throw new Error('null marker not found');
  return fromHex(hexB.slice(0, at) + 'f6' + hexB.slice(at + toHex(enc).length));
}

// ---- chains.json: attenuation at mint and chain verification at decision ----------------------------------------------

function chainCases(): Case[] {
  const r = root('chain-root', { expiry: 5000n });
  const mid = attenuate(r, bob, { subject: carol.did, budget_uj: 800n, nonce: nonce('chain-mid') });
  const leaf = attenuate(mid, carol, { subject: dave.did, budget_uj: 500n, nonce: nonce('chain-leaf') });
  const d2 = root('chain-d2', { delegate_depth: 2n });
  const leafOnly = root('chain-leaf-only', { delegate_depth: 0n });
  const A = (name: string, comment: string, flags: string[], clauses: string[], parent: SignedGrant, holder: KeyPair, child: JsonObject, intent: Intent): Case => ({
    pack: 'chains',
    name,
    type: 'Attenuate',
    comment,
    flags,
    clauses,
    inputs: { parent: sgHex(parent), holder_seed: toHex(holder.seed), child },
    intent,
  });
  const child = (label: string, over: JsonObject = {}): JsonObject => ({ subject: carol.did, nonce: toHex(nonce(label)), ...over });
  const D = (name: string, comment: string, flags: string[], clauses: string[], d: DecideSpec, steps: Extract<Intent, { steps: unknown }>['steps']): Case => ({
    pack: 'chains',
    name,
    type: 'Decide',
    comment,
    flags,
    clauses,
    inputs: decideInputs(d),
    intent: { steps },
  });
  const amp = ['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker'];
  const ampChain = ['jcp/4.2#broken-or-amplifying-denied', 'jcp/4.1#refuse-amplification', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'];
  const broken = ['jcp/4.2#broken-or-amplifying-denied', 'jcp/4.2#verify-hop-by-hop', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'];
  const ampCase = (name: string, comment: string, over: Partial<Grant>) =>
    D(name, comment, ['Amplification'], ampChain, { steps: [{ chain: [r, rawChild(r, bob, `amp-${name}`, over)], caller: carol }] }, [deny('attenuation-violation')]);
  return [
    A('attenuate-narrow-budget', 'the holder mints a child with a smaller budget: issued by the holder, parent = the root id', ['Canonical'], ['jcp/4.1#holder-may-mint-child', 'jcp/4.1#child-strictly-weaker', 'jcp/4#grant-id-and-signature'], r, bob, child('att-budget', { budget_uj: 800 }), { ok: true }),
    A('attenuate-narrow-actions', 'a child with a subset of the actions', ['Canonical'], ['jcp/4.1#child-strictly-weaker'], r, bob, child('att-actions', { actions: ['read'] }), { ok: true }),
    A('attenuate-narrow-expiry', "a child expiring before its parent", ['Canonical'], ['jcp/4.1#expiry-not-outlive'], r, bob, child('att-expiry', { expiry: 4000 }), { ok: true }),
    A('attenuate-depth-narrows', 'a child of a depth-2 parent carries depth 1 by default', ['Canonical'], ['jcp/4.4#depth-narrows'], d2, bob, child('att-depth'), { ok: true }),
    A('attenuate-inherits-all', 'a plain attenuation inherits every axis unchanged', ['Canonical'], ['jcp/4.1#holder-may-mint-child'], r, bob, child('att-plain'), { ok: true }),
    A('attenuate-amplify-budget', 'a child budget above the parent is refused', ['Amplification', 'SuiteErrorCode'], amp, r, bob, child('att-amp-budget', { budget_uj: 1001 }), { error: 'ERR_ATTENUATION_VIOLATION' }),
    A('attenuate-amplify-actions', 'an action the parent lacks is refused', ['Amplification', 'SuiteErrorCode'], amp, r, bob, child('att-amp-actions', { actions: ['call', 'delete'] }), { error: 'ERR_ATTENUATION_VIOLATION' }),
    A('attenuate-outlive-expiry', "a child expiring after its parent is refused", ['Amplification', 'SuiteErrorCode'], ['jcp/4.1#expiry-not-outlive', 'jcp/4.1#refuse-amplification'], r, bob, child('att-amp-expiry', { expiry: 5001 }), { error: 'ERR_ATTENUATION_VIOLATION' }),
    A('attenuate-never-expiring-under-expiring', 'expiry 0 (never) under an expiring parent outlives it and is refused', ['Amplification', 'SuiteErrorCode'], ['jcp/4.1#expiry-not-outlive', 'jcp/4.1#refuse-amplification'], r, bob, child('att-amp-expiry0', { expiry: 0 }), { error: 'ERR_ATTENUATION_VIOLATION' }),
    A('attenuate-amplify-depth', "a child depth above its parent's bound is refused", ['Amplification', 'DepthLimit', 'SuiteErrorCode'], ['jcp/4.4#depth-narrows', 'jcp/4.1#refuse-amplification'], d2, bob, child('att-amp-depth', { delegate_depth: 2 }), { error: 'ERR_ATTENUATION_VIOLATION' }),
    A('attenuate-non-holder', "mallory, not the parent's subject, cannot delegate it", ['NonHolder', 'SuiteErrorCode'], ['jcp/4.1#refuse-non-holder'], r, mallory, child('att-mallory'), { error: 'ERR_NOT_HOLDER' }),
    A('attenuate-under-leaf-only', 'a leaf-only grant cannot be delegated at mint', ['DepthLimit', 'SuiteErrorCode'], ['jcp/4.4#leaf-only-refused'], leafOnly, bob, child('att-leaf'), { error: 'ERR_DELEGATION_FORBIDDEN' }),
    D('chain-three-links-allowed', 'root → mid → leaf, decided by the leaf subject: allowed, every link debited', ['SiblingConservation'], ['jcp/4.2#verify-hop-by-hop', 'jcp/4.2#sibling-conservation', 'jcp/8.1#chain-ids', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [r, mid, leaf], caller: dave }] }, [allow]),
    D('chain-spliced', 'the middle link left out: the leaf does not name the root as its parent', ['ChainStructure'], broken, { steps: [{ chain: [r, leaf], caller: dave }] }, [deny('chain-broken')]),
    D('chain-reversed', 'the chain presented leaf first', ['ChainStructure'], broken, { steps: [{ chain: [leaf, mid, r], caller: bob }] }, [deny('chain-broken')]),
    D('chain-delegated-alone', 'a delegated grant decided on its own', ['ChainStructure'], ['jcp/4.2#delegated-alone-chain-broken', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [mid], caller: carol }] }, [deny('chain-broken')]),
    D('chain-hop-not-by-holder', "a child of the root signed by mallory, not the root's subject", ['NonHolder', 'ChainStructure'], broken, { steps: [{ chain: [r, rawChild(r, mallory, 'chain-mallory')], caller: carol }] }, [deny('chain-broken')]),
    D('chain-bad-signature-middle', 'the middle link carries a flipped signature bit', ['ModifiedSignature'], ['jcp/4.2#broken-or-amplifying-denied', 'jcp/4.2#verify-hop-by-hop', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [r, flippedSignature(mid), leaf], caller: dave }] }, [deny('bad-signature')]),
    ampCase('chain-amplify-budget', 'a raw child with budget 1001 under a 1000 µJ root', { budget_uj: 1001n }),
    ampCase('chain-amplify-actions', 'a raw child adding the action delete', { capability: { resource: TOOL, actions: ['call', 'delete'] } }),
    ampCase('chain-amplify-expiry', 'a raw child expiring after its root', { expiry: 5001n }),
    ampCase('chain-amplify-expiry-never', 'a raw child that never expires under an expiring root', { expiry: 0n }),
    ampCase('chain-amplify-resource', 'a raw child over another content-addressed resource', { capability: { resource: OTHER, actions: ['call'] } }),
    D('chain-hop-under-leaf-only', 'a raw hop under a leaf-only root', ['DepthLimit', 'ChainStructure'], ['jcp/4.4#leaf-only-refused', 'jcp/4.2#broken-or-amplifying-denied', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [leafOnly, rawChild(leafOnly, bob, 'chain-under-leaf')], caller: carol }] }, [deny('chain-broken')]),
    D('chain-depth-exceeds-parent', 'a raw child of a depth-2 root claiming depth 2', ['DepthLimit', 'Amplification'], ['jcp/4.4#depth-narrows', 'jcp/4.2#broken-or-amplifying-denied', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [d2, rawChild(d2, bob, 'chain-depth2', { delegate_depth: 2n })], caller: carol }] }, [deny('attenuation-violation')]),
    D(
      'chain-siblings-share-root',
      "two siblings of one 1000 µJ root: 600 µJ through the first is allowed, 600 µJ through the second exceeds the root",
      ['SiblingConservation', 'BudgetBoundary'],
      ['jcp/4.2#sibling-conservation', 'jcp/7#budget-exceeded', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'],
      (() => {
        const sibRoot = root('chain-sib-root');
        const s1 = attenuate(sibRoot, bob, { subject: carol.did, budget_uj: 700n, nonce: nonce('sib-1') });
        const s2 = attenuate(sibRoot, bob, { subject: dave.did, budget_uj: 700n, nonce: nonce('sib-2') });
        return { steps: [{ chain: [sibRoot, s1], caller: carol, cost_uj: 600n }, { chain: [sibRoot, s2], caller: dave, cost_uj: 600n }] };
      })(),
      [allow, deny('budget-exceeded')],
    ),
    D('chain-revoked-ancestor', 'the middle link revoked by its issuer: the leaf dies with it', ['Revoked'], ['jcp/4.3#subtree-dies', 'jcp/4.3#both-decision-paths', 'jcp/7#revoked', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { revocations: [{ revoker: bob, of: mid, label: 'rev-mid' }], steps: [{ chain: [r, mid, leaf], caller: dave }] }, [deny('revoked')]),
    D('chain-expired-middle', 'the middle link expired though its root has not', ['Expiry'], ['jcp/7#chained-order', 'jcp/7#expired', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], (() => {
      const er = root('chain-exp-root', { expiry: 5000n });
      const em = attenuate(er, bob, { subject: carol.did, expiry: 2000n, nonce: nonce('chain-exp-mid') });
      const el = attenuate(em, carol, { subject: dave.did, expiry: 2000n, nonce: nonce('chain-exp-leaf') });
      return { steps: [{ chain: [er, em, el], caller: dave, now_s: 3000 }] };
    })(), [deny('expired')]),
    D('chain-untrusted-root', "the root issuer is not a configured trust root for the frame's resource", ['TrustRoot'], ['jcp/7#unlisted-root-denied', 'jcp/7#untrusted-root', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { trust_roots: { [TOOL]: [carol] }, steps: [{ chain: [r, mid, leaf], caller: dave }] }, [deny('untrusted-root')]),
  ];
}

// ---- decisions.json: every §7 deny reason on the single-grant path, their order, and the debit -----------------------

function decisionCases(): Case[] {
  const g = root('dec-grant', { expiry: 2000n });
  const other = root('dec-other');
  const bad = flippedSignature(g, 0);
  const child = attenuate(g, bob, { subject: carol.did, budget_uj: 500n, nonce: nonce('dec-child') });
  const D = (name: string, comment: string, flags: string[], clauses: string[], d: DecideSpec, steps: Extract<Intent, { steps: unknown }>['steps']): Case => ({
    pack: 'decisions',
    name,
    type: 'Decide',
    comment,
    flags,
    clauses,
    inputs: decideInputs(d),
    intent: { steps },
  });
  const sealed = ['jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'];
  const rev = { revoker: alice, of: g, label: 'dec-rev' };
  const order = (name: string, comment: string, d: DecideSpec, reason: string): Case => D(name, comment, ['CheckOrder'], ['jcp/7#checks-in-order', ...sealed], d, [deny(reason)]);
  return [
    D('allow-debits', 'a well-formed request is allowed and debits its cost', [], ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [g], caller: bob, cost_uj: 42n }] }, [allow]),
    D('allow-exact-budget', 'spend up to exactly budget_uj is allowed; one more µJ is not', ['BudgetBoundary'], ['jcp/7#budget-exceeded', 'jcp/7#debit-on-allow', 'jcp/5#debit-coupling', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [g], caller: bob, cost_uj: 1000n }, { chain: [g], caller: bob, cost_uj: 1n }] }, [allow, deny('budget-exceeded')]),
    D('deny-untrusted-control', 'a data-tagged frame cannot exercise the grant', [], ['jcp/7#untrusted-control', 'jcp/6#data-frame-refused', ...sealed], { steps: [{ chain: [g], caller: bob, frame: { trust: 'data' } }] }, [deny('untrusted-control')]),
    D('deny-revoked', 'a grant revoked by its issuer', ['Revoked'], ['jcp/7#revoked', 'jcp/4.3#both-decision-paths', 'jcp/4.3#verify-revocation-authority', ...sealed], { revocations: [rev], steps: [{ chain: [g], caller: bob }] }, [deny('revoked')]),
    {
      ...D('forged-revocation-ignored', "a revocation signed by mallory, not the grant's issuer, is refused and the grant stays live", ['Revoked', 'SuiteErrorCode'], ['jcp/4.3#verify-revocation-authority', 'jcp/4.3#revoked-by-equals-issuer', ...sealed], { revocations: [{ revoker: mallory, of: g, label: 'dec-forged' }], steps: [{ chain: [g], caller: bob }] }, [allow]),
      intent: { revocations: ['ERR_REVOCATION_UNAUTHORIZED'], steps: [allow] },
    },
    D('deny-untrusted-root', 'once a root is configured for the resource, an unlisted issuer is denied', ['TrustRoot'], ['jcp/7#untrusted-root', 'jcp/7#unlisted-root-denied', ...sealed], { trust_roots: { [TOOL]: [carol] }, steps: [{ chain: [g], caller: bob }] }, [deny('untrusted-root')]),
    D('allow-listed-root', 'a listed root issuer anchors authority', ['TrustRoot'], ['jcp/7#untrusted-root', 'jcp/7#unconfigured-resource-open', ...sealed], { trust_roots: { [TOOL]: [alice, carol] }, steps: [{ chain: [g], caller: bob }] }, [allow]),
    D('allow-unconfigured-resource-open', 'roots configured for another resource leave this one open', ['TrustRoot'], ['jcp/7#unconfigured-resource-open', ...sealed], { trust_roots: { [OTHER]: [carol] }, steps: [{ chain: [g], caller: bob }] }, [allow]),
    D('deny-grant-id-mismatch', "a frame naming another grant's id", [], ['jcp/7#grant-id-mismatch', ...sealed], { steps: [{ chain: [g], caller: bob, frame: { grant_id: gid(other) } }] }, [deny('wrong-resource')]),
    D('deny-wrong-subject', "a caller other than the grant's subject", [], ['jcp/7#wrong-subject', ...sealed], { steps: [{ chain: [g], caller: mallory }] }, [deny('wrong-subject')]),
    D('deny-bad-signature', 'a grant whose issuer signature does not verify', ['ModifiedSignature'], ['jcp/7#bad-signature', ...sealed], { steps: [{ chain: [bad], caller: bob }] }, [deny('bad-signature')]),
    D('deny-expired', 'a request after the grant expired', ['Expiry'], ['jcp/7#expired', ...sealed], { steps: [{ chain: [g], caller: bob, now_s: 2001 }] }, [deny('expired')]),
    D('expiry-zero-never-expires', 'expiry 0 never expires, however late the clock', ['Expiry'], ['jcp/7#expired', ...sealed], { steps: [{ chain: [other], caller: bob, now_s: 4_000_000_000 }] }, [allow]),
    D('deny-wrong-resource', "a frame for another resource than the capability's", [], ['jcp/7#wrong-resource', ...sealed], { steps: [{ chain: [g], caller: bob, frame: { resource: OTHER } }] }, [deny('wrong-resource')]),
    D('deny-action-not-granted', 'an action outside the capability', [], ['jcp/7#action-not-granted', ...sealed], { steps: [{ chain: [g], caller: bob, frame: { action: 'delete' } }] }, [deny('action-not-granted')]),
    D('deny-budget-exceeded', 'prior spend + cost > budget_uj: denied and not debited', ['BudgetBoundary'], ['jcp/7#budget-exceeded', 'jcp/5#debit-coupling', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [g], caller: bob, cost_uj: 600n }, { chain: [g], caller: bob, cost_uj: 401n }] }, [allow, deny('budget-exceeded')]),
    D('deny-chain-broken', 'the chained path: a delegated grant presented without its root', ['ChainStructure'], ['jcp/4.2#delegated-alone-chain-broken', 'jcp/7#chained-order', ...sealed], { steps: [{ chain: [child], caller: carol }] }, [deny('chain-broken')]),
    D('deny-attenuation-violation', 'the chained path: a raw child wider than its root (budget 1001 under 1000)', ['Amplification'], ['jcp/4.2#broken-or-amplifying-denied', 'jcp/7#chained-order', ...sealed], { steps: [{ chain: [g, rawChild(g, bob, 'dec-amp', { budget_uj: 1001n })], caller: carol }] }, [deny('attenuation-violation')]),
    D('allow-chained', 'the chained path: a root and its attenuated child, decided by the child subject, debits both', ['SiblingConservation'], ['jcp/4.2#verify-hop-by-hop', 'jcp/4.2#sibling-conservation', ...sealed], { steps: [{ chain: [g, child], caller: carol, cost_uj: 30n }] }, [allow]),
    order('order-untrusted-control-before-revoked', 'a data frame over a revoked grant', { revocations: [rev], steps: [{ chain: [g], caller: bob, frame: { trust: 'data' } }] }, 'untrusted-control'),
    order('order-revoked-before-untrusted-root', 'a revoked grant from an unlisted root', { revocations: [rev], trust_roots: { [TOOL]: [carol] }, steps: [{ chain: [g], caller: bob }] }, 'revoked'),
    order('order-untrusted-root-before-grant-id', 'an unlisted root and a frame naming another grant', { trust_roots: { [TOOL]: [carol] }, steps: [{ chain: [g], caller: bob, frame: { grant_id: gid(other) } }] }, 'untrusted-root'),
    order('order-grant-id-before-wrong-subject', 'a frame naming another grant, from the wrong caller', { steps: [{ chain: [g], caller: mallory, frame: { grant_id: gid(other) } }] }, 'wrong-resource'),
    order('order-wrong-subject-before-bad-signature', 'a bad signature, from the wrong caller', { steps: [{ chain: [bad], caller: mallory }] }, 'wrong-subject'),
    order('order-bad-signature-before-expired', 'a bad signature, after expiry', { steps: [{ chain: [bad], caller: bob, now_s: 3000 }] }, 'bad-signature'),
    order('order-expired-before-wrong-resource', 'expired, and another resource', { steps: [{ chain: [g], caller: bob, now_s: 3000, frame: { resource: OTHER } }] }, 'expired'),
    order('order-wrong-resource-before-action', 'another resource and an action not granted', { steps: [{ chain: [g], caller: bob, frame: { resource: OTHER, action: 'delete' } }] }, 'wrong-resource'),
    order('order-action-before-budget', 'an action not granted, over budget', { steps: [{ chain: [g], caller: bob, cost_uj: 5000n, frame: { action: 'delete' } }] }, 'action-not-granted'),
  ];
}

// ---- receipts.json and legacy_jcp1.json: COSE_Sign1 receipts, sealed, verified, tampered ------------------------------

/** Receipts sealed by the reference over fixed decisions: an allow, a deny, a chained allow, a Partial figure. */
function sealedReceipts(): { allow: Uint8Array; deny: Uint8Array; chained: Uint8Array; partial: Uint8Array } {
  const g = root('rcpt-grant');
  const p = createEnforcementPoint({ steward });
  const frame: Frame = { kind: 'tool-call', trust: 'control', grant_id: gid(g), action: 'call', resource: TOOL, payload_hash: ARGS };
  const req = (over: Partial<Frame> = {}, chain: SignedGrant[] = [g], caller = bob.did, coverage?: 'Partial') => ({
    frame: { ...frame, ...over },
    chain,
    caller,
    cost: { uj: 42n, provenance: 'HwShunt' as const, ...(coverage ? { coverage } : {}) },
    now_s: BigInt(NOW),
  });
  const allowR = p.decide(req()).receipt;
  const denyR = p.decide(req({ action: 'delete' })).receipt;
  const partial = p.decide(req({}, [g], bob.did, 'Partial')).receipt;
  const child = attenuate(g, bob, { subject: carol.did, budget_uj: 500n, nonce: nonce('rcpt-child') });
  const chained = p.decide(req({ grant_id: gid(child) }, [g, child], carol.did)).receipt;
  return { allow: allowR, deny: denyR, chained, partial };
}

type CoreMap = Map<string, CborValue>;
const coreOf = (receipt: Uint8Array): CoreMap => {
  const top = decodeCanonical(receipt, { allowTags: [18] }) as { value: CborValue[] };
  return decodeCanonical(top.value[2] as Uint8Array) as CoreMap;
};
const withField = (core: CoreMap, k: string, v: CborValue | undefined): CoreMap => {
  const c = new Map(core);
  if (v === undefined) c.delete(k);
  else c.set(k, v);
  return c;
};
/** Seals an arbitrary core as a tagged COSE_Sign1 with `k`: how a jcp/1 receipt (which no implementation may mint now) is made. */
const reseal = (core: CoreMap, k: KeyPair = steward): Uint8Array => signSign1(encodeCanonical(core), stewardKid(k.did), k.seed, defaultEd25519());
const flipByte = (b: Uint8Array, at: number): Uint8Array => {
  const c = b.slice();
  c[at]! ^= 0x01;
  return c;
};

function receiptCases(): Case[] {
  const s = sealedReceipts();
  const V = (name: string, comment: string, flags: string[], clauses: string[], receipt: Uint8Array, intent: Intent, stewardDid: string | null = steward.did): Case => ({
    pack: 'receipts',
    name,
    type: 'ReceiptVerify',
    comment,
    flags,
    clauses,
    inputs: { receipt: toHex(receipt), ...(stewardDid !== null ? { steward: stewardDid } : {}) },
    intent,
  });
  const g = root('rcpt-seal');
  const child = attenuate(g, bob, { subject: carol.did, budget_uj: 500n, nonce: nonce('rcpt-seal-child') });
  const cose = ['jcp/8#cose-sign1-eddsa', 'jcp/8#steward-is-kid', 'jcp/8#every-decision-sealed'];
  const allowCore = coreOf(s.allow);
  const tagless = (() => {
    const top = decodeCanonical(s.allow, { allowTags: [18] }) as { value: CborValue[] };
    return encodeCanonical(top.value);
  })();
  const otherAlg = (() => {
    const top = decodeCanonical(s.allow, { allowTags: [18] }) as { value: CborValue[] };
    const prot = encodeCanonical(new Map<number, CborValue>([[1, -7], [4, stewardKid(steward.did)]]));
    return encodeCanonical(cborTag(18, [prot, top.value[1]!, top.value[2]!, top.value[3]!]), { allowTags: true });
  })();
  return [
    {
      pack: 'receipts',
      name: 'seal-allow-and-deny',
      type: 'Decide',
      comment: 'an allow then a deny on a fresh point: the exact COSE_Sign1 bytes of each receipt (deterministic Ed25519 over the canonical core)',
      flags: ['ReceiptBytes'],
      clauses: [...cose, 'jcp/8#payload-hash-included', 'jcp/8#never-mint-jcp1', 'jcp/7#decision-deterministic', 'jcp/7#debit-on-allow'],
      inputs: decideInputs({ steps: [{ chain: [g], caller: bob, cost_uj: 42n, provenance: 'HwShunt' }, { chain: [g], caller: bob, frame: { action: 'delete' } }] }),
      intent: { steps: [allow, deny('action-not-granted')] },
      pinReceipt: true,
    },
    {
      pack: 'receipts',
      name: 'seal-chained-partial',
      type: 'Decide',
      comment: 'a chained allow of a Partial figure: chain_ids root first, energy_coverage Partial, exact bytes',
      flags: ['ReceiptBytes'],
      clauses: [...cose, 'jcp/8.1#chain-ids', 'jcp/8#coverage-only-when-partial'],
      inputs: decideInputs({ steps: [{ chain: [g, child], caller: carol, cost_uj: 7n, provenance: 'ModelBased', coverage: 'Partial' }] }),
      intent: { steps: [allow] },
      pinReceipt: true,
    },
    V('verify-allow', 'an allow receipt verifies under its steward', [], cose, s.allow, { ok: true }),
    V('verify-deny', 'a deny receipt verifies: deny_reason present', [], cose, s.deny, { ok: true }),
    V('verify-chained', 'a chained receipt names every debited link, root first', [], [...cose, 'jcp/8.1#chain-ids'], s.chained, { ok: true }),
    V('verify-partial', 'a Partial figure seals energy_coverage', [], [...cose, 'jcp/8#coverage-only-when-partial'], s.partial, { ok: true }),
    V('verify-no-expected-steward', 'verified with no steward expected: the kid names it', [], cose, s.allow, { ok: true }, null),
    V('wrong-steward', 'an allow receipt checked against another steward', ['StewardMismatch', 'SuiteErrorCode'], ['jcp/8#steward-is-kid'], s.allow, { error: 'ERR_RECEIPT_STEWARD_MISMATCH' }, mallory.did),
    V('resealed-by-other-key', "the steward's core sealed by mallory under mallory's kid", ['StewardMismatch', 'SuiteErrorCode'], ['jcp/8#steward-is-kid'], reseal(allowCore, mallory), { error: 'ERR_RECEIPT_STEWARD_MISMATCH' }),
    V('flipped-signature', 'the last signature byte flipped', ['ModifiedReceipt', 'SuiteErrorCode'], ['jcp/8#cose-sign1-eddsa'], flipByte(s.allow, s.allow.length - 1), { error: 'ERR_RECEIPT_SIGNATURE_INVALID' }),
    V('payload-substituted', 'payload_hash replaced after sealing, the signature kept', ['ModifiedReceipt', 'SuiteErrorCode'], ['jcp/8#payload-hash-included'], (() => {
      const top = decodeCanonical(s.allow, { allowTags: [18] }) as { value: CborValue[] };
      const core = encodeCanonical(withField(allowCore, 'payload_hash', payload('other-args')));
      return encodeCanonical(cborTag(18, [top.value[0]!, top.value[1]!, core, top.value[3]!]), { allowTags: true });
    })(), { error: 'ERR_RECEIPT_SIGNATURE_INVALID' }),
    V('cost-raised', 'cost_uj raised after sealing, the signature kept', ['ModifiedReceipt', 'SuiteErrorCode'], ['jcp/8#cose-sign1-eddsa'], (() => {
      const top = decodeCanonical(s.allow, { allowTags: [18] }) as { value: CborValue[] };
      const core = encodeCanonical(withField(allowCore, 'cost_uj', 43));
      return encodeCanonical(cborTag(18, [top.value[0]!, top.value[1]!, core, top.value[3]!]), { allowTags: true });
    })(), { error: 'ERR_RECEIPT_SIGNATURE_INVALID' }),
    V('unknown-profile', 'a core tagged jcp/3, validly signed', ['UnknownProfile', 'SuiteErrorCode'], ['jcp/8#refuse-unknown-profile'], reseal(withField(allowCore, 'jcp_receipt', 'jcp/3')), { error: 'ERR_RECEIPT_PROFILE_UNKNOWN' }),
    V('jcp2-without-payload-hash', 'a jcp/2 core without payload_hash, validly signed', ['Malformed', 'SuiteErrorCode'], ['jcp/8#payload-hash-included', 'jcp/8#recompute-under-profile'], reseal(withField(allowCore, 'payload_hash', undefined)), { error: 'ERR_RECEIPT_MALFORMED' }),
    V('coverage-whole', 'energy_coverage "Whole" sealed: only Partial may appear', ['Malformed', 'SuiteErrorCode'], ['jcp/8#coverage-only-when-partial'], reseal(withField(allowCore, 'energy_coverage', 'Whole')), { error: 'ERR_RECEIPT_MALFORMED' }),
    V('truncated', 'the envelope cut one byte short', ['Malformed', 'SuiteErrorCode'], ['jcp/8#cose-sign1-eddsa'], s.allow.slice(0, s.allow.length - 1), { error: 'ERR_COSE_MALFORMED' }),
    V('untagged', 'the COSE_Sign1 array without tag 18', ['Malformed', 'SuiteErrorCode'], ['jcp/8#cose-sign1-eddsa'], tagless, { error: 'ERR_COSE_MALFORMED' }),
    V('alg-es256', 'a protected header naming alg -7 (ES256), not EdDSA', ['Malformed', 'SuiteErrorCode'], ['jcp/8#cose-sign1-eddsa'], otherAlg, { error: 'ERR_COSE_UNSUPPORTED_ALG' }),
  ];
}

function legacyCases(): Case[] {
  const s = sealedReceipts();
  const v1 = (receipt: Uint8Array): CoreMap => withField(withField(coreOf(receipt), 'jcp_receipt', 'jcp/1'), 'payload_hash', undefined);
  const V = (name: string, comment: string, flags: string[], clauses: string[], receipt: Uint8Array, intent: Intent): Case => ({
    pack: 'legacy_jcp1',
    name,
    type: 'ReceiptVerify',
    comment,
    flags,
    clauses,
    inputs: { receipt: toHex(receipt), steward: steward.did },
    intent,
  });
  const mig = ['jcp/8#recompute-under-profile'];
  const allow1 = reseal(v1(s.allow));
  return [
    V('jcp1-allow', 'a jcp/1 allow receipt (no payload_hash) still verifies, read under jcp/1', ['ProfileMigration'], mig, allow1, { ok: true }),
    V('jcp1-deny', 'a jcp/1 deny receipt still verifies', ['ProfileMigration'], mig, reseal(v1(s.deny)), { ok: true }),
    V('jcp1-chained', 'a jcp/1 chained receipt with chain_ids still verifies', ['ProfileMigration'], [...mig, 'jcp/8.1#chain-ids'], reseal(v1(s.chained)), { ok: true }),
    V('jcp1-with-payload-hash', 'a jcp/1 core carrying payload_hash is not a jcp/1 preimage', ['ProfileMigration', 'Malformed', 'SuiteErrorCode'], mig, reseal(withField(v1(s.allow), 'payload_hash', ARGS)), { error: 'ERR_RECEIPT_MALFORMED' }),
    V('jcp1-with-coverage', 'a jcp/1 core carrying energy_coverage (a jcp/2 field)', ['ProfileMigration', 'Malformed', 'SuiteErrorCode'], mig, reseal(withField(v1(s.partial), 'energy_coverage', 'Partial')), { error: 'ERR_RECEIPT_MALFORMED' }),
    V('jcp1-flipped-signature', 'a jcp/1 receipt whose last signature byte is flipped', ['ProfileMigration', 'ModifiedReceipt', 'SuiteErrorCode'], mig, flipByte(allow1, allow1.length - 1), { error: 'ERR_RECEIPT_SIGNATURE_INVALID' }),
  ];
}

// ---- caveats.json: the seven variants in signed bytes, enforced on decision, carried down chains ---------------------

function caveatCases(): Case[] {
  const all: Caveat[] = [{ ActionIn: ['call'] }, { PayloadIs: ARGS }, { CallerIs: bob.did }, { NotBefore: 500n }, { NotAfter: 1500n }, { MaxCostUj: 100n }, { ModelIn: [MODEL] }];
  const M = (name: string, comment: string, cav: Caveat[], intent: Intent = { ok: true }, extra: string[] = []): Case => ({
    pack: 'caveats',
    name,
    type: 'GrantMint',
    comment,
    flags: ['Canonical', 'Caveat', ...extra],
    clauses: ['jcp/4.9#grant-may-carry-caveats', 'jcp/4.9#support-caveat-variants', 'jcp/4#grant-id-and-signature'],
    inputs: mintInputs(`cav-mint-${name}`, { caveats: cav }),
    intent,
  });
  const D = (name: string, comment: string, flags: string[], clauses: string[], d: DecideSpec, steps: Extract<Intent, { steps: unknown }>['steps']): Case => ({
    pack: 'caveats',
    name,
    type: 'Decide',
    comment,
    flags: ['Caveat', ...flags],
    clauses,
    inputs: decideInputs(d),
    intent: { steps },
  });
  const hold = ['jcp/4.9#caveats-all-hold', 'jcp/4.9#support-caveat-variants', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'];
  const single = (variant: string, c: Caveat, ok: Partial<Step>, bad: Partial<Step>): Case[] => {
    const g = root(`cav-${variant}`, { caveats: [c] });
    return [
      D(`${variant}-holds`, `${variant} satisfied: allowed`, [], hold, { steps: [{ chain: [g], caller: bob, ...ok }] }, [allow]),
      D(`${variant}-fails`, `${variant} unsatisfied: denied caveat-unsatisfied`, [], hold, { steps: [{ chain: [g], caller: bob, ...bad }] }, [deny('caveat-unsatisfied')]),
    ];
  };
  const cRoot = root('cav-chain-root', { caveats: [{ MaxCostUj: 50n }], budget_uj: 1000n });
  const cChild = attenuate(cRoot, bob, { subject: carol.did, budget_uj: 500n, nonce: nonce('cav-chain-child') });
  const dropped = rawChild(cRoot, bob, 'cav-dropped', {}, ['caveats']);
  return [
    ...all.map((c) => M(`mint-${Object.keys(c)[0]!}`, `a grant carrying ${Object.keys(c)[0]!} in its signed bytes`, [c])),
    M('mint-all-seven', 'a grant carrying all seven variants, in the order given', all),
    {
      ...M('mint-invented-predicate', 'a caveat outside the variants (a content predicate the point cannot evaluate) is refused', [], { error: 'ERR_GRANT_MALFORMED' }, ['Malformed', 'SuiteErrorCode']),
      clauses: ['jcp/4.9#no-invented-predicate'],
      inputs: { ...mintInputs('cav-invented'), grant: { ...(mintInputs('cav-invented')['grant'] as JsonObject), caveats: [{ PayloadContains: 'secret' }] } },
    },
    ...single('ActionIn', { ActionIn: ['read'] }, { frame: { action: 'read' } }, { frame: { action: 'call' } }),
    ...single('PayloadIs', { PayloadIs: ARGS }, {}, { frame: { payload_hash: payload('other-args') } }),
    // the subject check runs first, so the caller is always the subject (carol): CallerIs names her, or names bob
    D('CallerIs-holds', 'CallerIs satisfied: allowed', [], hold, { steps: [{ chain: [root('cav-CallerIs-ok', { subject: carol, caveats: [{ CallerIs: carol.did }] })], caller: carol }] }, [allow]),
    D('CallerIs-fails', 'CallerIs names another principal than the caller: denied caveat-unsatisfied', [], hold, { steps: [{ chain: [root('cav-CallerIs-bad', { subject: carol, caveats: [{ CallerIs: bob.did }] })], caller: carol }] }, [deny('caveat-unsatisfied')]),
    ...single('NotBefore', { NotBefore: 500n }, { now_s: 500 }, { now_s: 499 }),
    ...single('NotAfter', { NotAfter: 1500n }, { now_s: 1500 }, { now_s: 1501 }),
    ...single('MaxCostUj', { MaxCostUj: 100n }, { cost_uj: 100n }, { cost_uj: 101n }),
    ...single('ModelIn', { ModelIn: [MODEL] }, { frame: { model: MODEL } }, { frame: { model: payload('model-b') } }),
    D('ModelIn-no-model', 'ModelIn fails closed: a frame that names no model is denied', [], hold, { steps: [{ chain: [root('cav-ModelIn', { caveats: [{ ModelIn: [MODEL] }] })], caller: bob }] }, [deny('caveat-unsatisfied')]),
    {
      pack: 'caveats',
      name: 'attenuate-add-caveat',
      type: 'Attenuate',
      comment: 'a caveat-adding attenuation appends after every inherited caveat',
      flags: ['Canonical', 'Caveat'],
      clauses: ['jcp/4.9#child-carries-parent-caveats'],
      inputs: { parent: sgHex(cRoot), holder_seed: toHex(bob.seed), child: { subject: carol.did, nonce: toHex(nonce('cav-add')), add_caveats: [caveatJson({ MaxCostUj: 20n })] } },
      intent: { ok: true },
    },
    D('chain-inherited-caveat-binds', "a chained decision enforces the root's MaxCostUj: 50 allowed, 51 denied", [], ['jcp/4.2#caveats-every-link', 'jcp/4.9#caveats-all-hold', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [cRoot, cChild], caller: carol, cost_uj: 50n }, { chain: [cRoot, cChild], caller: carol, cost_uj: 51n }] }, [allow, deny('caveat-unsatisfied')]),
    D('chain-dropped-caveat', 'a child that dropped its parent\'s caveat does not verify: attenuation-violation', ['DroppedCaveat', 'Amplification'], ['jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused', 'jcp/4.2#broken-or-amplifying-denied', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [cRoot, dropped], caller: carol, cost_uj: 10n }] }, [deny('attenuation-violation')]),
  ];
}

// ---- money.json: the dual ceilings of jcp §4.8 (C22) --------------------------------------------------------------

function moneyCases(): Case[] {
  const usd = (minor: bigint): Funds => ({ currency: 'USD', minor });
  const eur = (minor: bigint): Funds => ({ currency: 'EUR', minor });
  const D = (name: string, comment: string, flags: string[], clauses: string[], d: DecideSpec, steps: Extract<Intent, { steps: unknown }>['steps']): Case => ({
    pack: 'money',
    name,
    type: 'Decide',
    comment,
    flags: ['MoneyCeiling', ...flags],
    clauses,
    inputs: decideInputs(d),
    intent: { steps },
  });
  const both = ['jcp/4.8#priced-decision-both-ceilings', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'];
  const g = root('money-single', { budget_funds: usd(100n) });
  const jBinds = root('money-joule-binds', { budget_uj: 100n, budget_funds: usd(1000n) });
  const fBinds = root('money-funds-binds', { budget_uj: 1_000_000n, budget_funds: usd(5n) });
  const none = root('money-none', { budget_uj: 100n });
  const mRoot = root('money-chain-root', { budget_uj: 1000n, budget_funds: usd(100n) });
  const s1 = attenuate(mRoot, bob, { subject: carol.did, budget_funds: usd(70n), nonce: nonce('money-sib-1') });
  const s2 = attenuate(mRoot, bob, { subject: dave.did, budget_funds: usd(70n), nonce: nonce('money-sib-2') });
  const amp = (name: string, comment: string, over: Partial<Grant>, drop: ReadonlyArray<keyof Grant> = []) =>
    D(name, comment, ['Amplification'], ['jcp/4.8#child-money-not-amplify', 'jcp/4.8#drop-raise-redenominate-refused', 'jcp/4.2#broken-or-amplifying-denied', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], { steps: [{ chain: [mRoot, rawChild(mRoot, bob, `money-${name}`, over, drop)], caller: carol, cost_funds: usd(1n) }] }, [deny('attenuation-violation')]);
  const A = (name: string, comment: string, flags: string[], funds: Funds | undefined, intent: Intent): Case => ({
    pack: 'money',
    name,
    type: 'Attenuate',
    comment,
    flags: ['MoneyCeiling', ...flags],
    clauses: ['jcp/4.8#child-money-not-amplify', 'jcp/4.8#drop-raise-redenominate-refused'],
    inputs: { parent: sgHex(g), holder_seed: toHex(bob.seed), child: { subject: carol.did, nonce: toHex(nonce(`money-att-${name}`)), ...(funds ? { budget_funds: fundsJson(funds) } : {}) } },
    intent,
  });
  return [
    {
      pack: 'money',
      name: 'mint-money-ceiling',
      type: 'GrantMint',
      comment: 'a root grant carrying budget_funds {USD, 100}: signed into the grant bytes',
      flags: ['Canonical', 'MoneyCeiling'],
      clauses: ['jcp/4.8#grant-may-carry-money-ceiling', 'jcp/4#grant-id-and-signature'],
      inputs: mintInputs('money-single', { budget_funds: usd(100n) }),
      intent: { ok: true },
    },
    D('funds-bound-priced-spend', '60 allowed, 50 more exceeds 100 (funds-exceeded, nothing debited), 40 reaches exactly 100, then 1 more is refused', ['BudgetBoundary'], [...both, 'jcp/4.8#grant-may-carry-money-ceiling', 'jcp/9#c22-dual-ceilings'], { steps: [{ chain: [g], caller: bob, cost_funds: usd(60n) }, { chain: [g], caller: bob, cost_funds: usd(50n) }, { chain: [g], caller: bob, cost_funds: usd(40n) }, { chain: [g], caller: bob, cost_uj: 1n, cost_funds: usd(1n) }] }, [allow, deny('funds-exceeded'), allow, deny('funds-exceeded')]),
    D('joule-ceiling-binds-money-has-room', 'the joule ceiling binds while the money ceiling has room: budget-exceeded', [], [...both, 'jcp/4.8#may-deny-on-one-ceiling'], { steps: [{ chain: [jBinds], caller: bob, cost_uj: 150n, cost_funds: usd(1n) }] }, [deny('budget-exceeded')]),
    D('money-ceiling-binds-joules-have-room', 'the money ceiling binds while the joules have room: funds-exceeded', [], [...both, 'jcp/4.8#may-deny-on-one-ceiling'], { steps: [{ chain: [fBinds], caller: bob, cost_uj: 1n, cost_funds: usd(6n) }] }, [deny('funds-exceeded')]),
    D('absent-ceiling-is-not-zero', 'no budget_funds: joules alone bound the grant, so a priced call of any amount is allowed', [], both, { steps: [{ chain: [none], caller: bob, cost_funds: usd(1_000_000n) }] }, [allow]),
    D('currency-mismatch', 'a cost in EUR against a USD ceiling is refused, never converted', [], [...both, 'jcp/4.8#no-exchange-rate'], { steps: [{ chain: [g], caller: bob, cost_funds: eur(1n) }] }, [deny('currency-mismatch')]),
    D('currency-case-exact', "currency codes compare exactly: 'usd' is not 'USD'", [], [...both, 'jcp/4.8#no-exchange-rate'], { steps: [{ chain: [g], caller: bob, cost_funds: { currency: 'usd', minor: 1n } }] }, [deny('currency-mismatch')]),
    D('siblings-share-money', "two siblings each bounded at 70 under a 100 root: 60 through one, then 60 through the other exceeds the root's money", ['SiblingConservation'], [...both, 'jcp/4.8#child-money-not-amplify'], { steps: [{ chain: [mRoot, s1], caller: carol, cost_funds: usd(60n) }, { chain: [mRoot, s2], caller: dave, cost_funds: usd(60n) }] }, [allow, deny('funds-exceeded')]),
    amp('chain-raised-money', 'a raw child raising the money ceiling to 101', { budget_funds: usd(101n) }),
    amp('chain-redenominated-money', 'a raw child re-denominating the ceiling in EUR', { budget_funds: eur(50n) }),
    amp('chain-dropped-money', 'a raw child dropping the bounded parent ceiling', {}, ['budget_funds']),
    A('attenuate-narrow-money', 'a child with a lower money ceiling', ['Canonical'], usd(40n), { ok: true }),
    A('attenuate-inherit-money', 'a plain attenuation inherits the money ceiling unchanged', ['Canonical'], undefined, { ok: true }),
    A('attenuate-raise-money', 'a child raising the money ceiling is refused', ['Amplification', 'SuiteErrorCode'], usd(101n), { error: 'ERR_ATTENUATION_VIOLATION' }),
    A('attenuate-redenominate-money', 'a child re-denominating the ceiling is refused', ['Amplification', 'SuiteErrorCode'], eur(50n), { error: 'ERR_ATTENUATION_VIOLATION' }),
  ];
}

// ---- standing.json: mint policies and firings of jcp §4.6 (C20) -----------------------------------------------------

function standingCases(): Case[] {
  const PUSH = eventClassId({ source: 'github', event: 'push' });
  const ISSUE = eventClassId({ source: 'github', event: 'issue' });
  const g = root('standing-grant', { expiry: 5000n });
  const g2 = root('standing-grant-2', { expiry: 5000n });
  const leafOnly = root('standing-leaf', { delegate_depth: 0n });
  const policy = (sg: SignedGrant, per: bigint, max: bigint) => encodeCanonical(signedMintPolicyToCbor(authorMintPolicy(sg, alice, { event_class: PUSH, per_firing_uj: per, max_firings: max })));
  const raw = (p: MintPolicy, signer: KeyPair) => encodeCanonical(signedMintPolicyToCbor({ policy: p, signature: defaultEd25519().sign(signer.seed, mintPolicyBytes(p)) }));
  const NOT_AMPLIFY = 'jcp/4.6#policy-not-amplify';
  const C20 = 'jcp/9#c20-standing';
  const A = (name: string, comment: string, flags: string[], sg: SignedGrant, per: number, max: number, intent: Intent, issuer: KeyPair = alice): Case => ({
    pack: 'standing',
    name,
    type: 'PolicyAuthor',
    comment,
    flags: ['Standing', ...flags],
    clauses: [NOT_AMPLIFY],
    inputs: { issuer_seed: toHex(issuer.seed), grant: sgHex(sg), policy: { event_class: PUSH, per_firing_uj: per, max_firings: max } },
    intent,
  });
  const F = (name: string, comment: string, flags: string[], clauses: string[], sg: SignedGrant, pol: Uint8Array, classes: string[], intent: Extract<Intent, { firings: unknown }>): Case => ({
    pack: 'standing',
    name,
    type: 'StandingFire',
    comment,
    flags: ['Standing', ...flags],
    clauses,
    inputs: { steward_seed: toHex(steward.seed), grant: sgHex(sg), policy: toHex(pol), firings: classes.map((ec, i) => ({ event_class: ec, holder_seed: toHex(bob.seed), child: { subject: carol.did, nonce: toHex(nonce(`standing-${name}-${i}`)) } })) },
    intent,
  });
  return [
    A('author-policy', "the grant's issuer signs a policy bound to the grant by id: exact bytes", ['Canonical'], g, 300, 5, { ok: true }),
    A('author-whole-budget', 'a per-firing slice equal to the whole grant is no amplification', ['Canonical', 'BudgetBoundary'], g, 1000, 1, { ok: true }),
    A('author-not-issuer', "bob, not the grant's issuer, cannot author its policy", ['NonHolder', 'SuiteErrorCode'], g, 300, 5, { error: 'ERR_MINT_POLICY_UNAUTHORIZED' }, bob),
    A('author-slice-past-grant', 'a per-firing slice above the grant budget amplifies it', ['Amplification', 'SuiteErrorCode'], g, 1001, 1, { error: 'ERR_MINT_POLICY_AMPLIFIES' }),
    A('author-over-leaf-only', 'a policy over a leaf-only grant would mint children the grant forbids', ['Amplification', 'DepthLimit', 'SuiteErrorCode'], leafOnly, 10, 1, { error: 'ERR_MINT_POLICY_AMPLIFIES' }),
    F('fire-once', 'one firing mints a strictly weaker child of the standing grant: exact bytes; the ledger counts it', ['Canonical'], [C20], g, policy(g, 300n, 5n), [PUSH], { firings: ['minted'], ledger: { firings: 1, cumulative_uj: 300 } }),
    F('fire-wrong-class', 'an event of another class is refused; the ledger is unchanged', ['SuiteErrorCode'], [C20], g, policy(g, 300n, 5n), [ISSUE], { firings: ['ERR_FIRING_WRONG_EVENT_CLASS'], ledger: { firings: 0, cumulative_uj: 0 } }),
    F('fire-past-budget', 'three 300 µJ firings fit a 1000 µJ grant; a fourth would reach 1200 and is refused, though five are allowed', ['BudgetBoundary', 'SuiteErrorCode'], [C20], g, policy(g, 300n, 5n), [PUSH, PUSH, PUSH, PUSH], { firings: ['minted', 'minted', 'minted', 'ERR_FIRING_OVER_BUDGET'], ledger: { firings: 3, cumulative_uj: 900 } }),
    F('fire-exhausted', 'a policy of two firings refuses a third', ['SuiteErrorCode'], [C20], g2, policy(g2, 100n, 2n), [PUSH, PUSH, PUSH], { firings: ['minted', 'minted', 'ERR_FIRINGS_EXHAUSTED'], ledger: { firings: 2, cumulative_uj: 200 } }),
    F('fire-crafted-amplifying', 'a policy signed past the author check, slicing 1001 µJ from 1000, mints nothing', ['Amplification', 'SuiteErrorCode'], [NOT_AMPLIFY], g, raw({ grant_id: gid(g), issuer: alice.did, event_class: PUSH, per_firing_uj: 1001n, max_firings: 1n }, alice), [PUSH], { firings: ['ERR_MINT_POLICY_AMPLIFIES'], ledger: { firings: 0, cumulative_uj: 0 } }),
    F('fire-foreign-policy', "a policy signed by mallory, not the grant's issuer, mints nothing", ['NonHolder', 'SuiteErrorCode'], [NOT_AMPLIFY], g, raw({ grant_id: gid(g), issuer: mallory.did, event_class: PUSH, per_firing_uj: 10n, max_firings: 1n }, mallory), [PUSH], { firings: ['ERR_MINT_POLICY_UNAUTHORIZED'], ledger: { firings: 0, cumulative_uj: 0 } }),
  ];
}

// ---- channels.json: receipt-settled budget channels of jcp §4.5 (C17) ----------------------------------------------

function channelCases(): Case[] {
  const P1 = key('channel-point-1');
  const P2 = key('channel-point-2');
  const P3 = key('channel-point-3');
  const members = [P1, P2, P3];
  const OPTIMISTIC = 'jcp/4.5#channels-spend-optimistically';
  const SETTLE = 'jcp/4.5#statement-verified-and-counted';
  const C17 = 'jcp/9#c17-channels';
  const st = (s: Statement, signer: KeyPair): string => toHex(encodeCanonical(signedStatementToCbor({ statement: s, signature: defaultEd25519().sign(signer.seed, statementBytes(s)) })));
  type Op = { at: number; spend_uj: number } | { at: number; statement_to: number } | { at: number; apply: string };
  const C = (name: string, comment: string, flags: string[], clauses: string[], g: SignedGrant, ops: Op[], intent: Extract<Intent, { ops: unknown }>): Case => ({
    pack: 'channels',
    name,
    type: 'ChannelScript',
    comment,
    flags: ['Channel', ...flags],
    clauses,
    inputs: { chain: [sgHex(g)], members: members.map((m) => m.did), points: [P1, P2].map((p) => toHex(p.seed)), ops: ops as unknown as Json[] },
    intent,
  });
  const g = (label: string) => root(`channel-${label}`);
  const gm = g('merged');
  const gf = g('forged');
  const gs = g('stale');
  const gr = g('regressing');
  const gw = g('wrong');
  const go = g('overdraft');
  return [
    C('settle-merged-ledger-binds', "P1 spends 600 and settles with P2: P2's merged ledger counts it, so P2 may spend 400 and no more", [], [OPTIMISTIC, SETTLE, C17], gm, [{ at: 0, spend_uj: 600 }, { at: 0, statement_to: 1 }, { at: 1, spend_uj: 401 }, { at: 1, spend_uj: 400 }, { at: 1, spend_uj: 1 }], { ops: ['allow', 'accepted', 'deny:budget-exceeded', 'allow', 'deny:budget-exceeded'], totals: [600, 1000] }),
    C('forged-statement', "a statement naming P2 but signed by P3 is refused and changes nothing", ['ModifiedSignature', 'SuiteErrorCode'], [SETTLE, C17], gf, [{ at: 0, apply: st({ grant_id: gid(gf), point: P2.did, spent_uj: 500n, seq: 1n }, P3) }], { ops: ['ERR_STATEMENT_FORGED'], totals: [0, 0] }),
    C('stale-statement', 'the same statement applied twice: the second is stale (seq not increasing)', ['SuiteErrorCode'], [SETTLE, C17], gs, [{ at: 1, spend_uj: 100 }, { at: 0, apply: st({ grant_id: gid(gs), point: P2.did, spent_uj: 100n, seq: 1n }, P2) }, { at: 0, apply: st({ grant_id: gid(gs), point: P2.did, spent_uj: 100n, seq: 1n }, P2) }], { ops: ['allow', 'accepted', 'ERR_STATEMENT_STALE'], totals: [100, 100] }),
    C('regressing-statement', 'a later statement claiming less cumulative spend is refused', ['SuiteErrorCode'], [SETTLE, C17], gr, [{ at: 0, apply: st({ grant_id: gid(gr), point: P2.did, spent_uj: 500n, seq: 3n }, P2) }, { at: 0, apply: st({ grant_id: gid(gr), point: P2.did, spent_uj: 499n, seq: 4n }, P2) }], { ops: ['accepted', 'ERR_STATEMENT_REGRESSING'], totals: [500, 0] }),
    C('wrong-grant-or-outsider', "a statement about another grant, and one from a point outside the channel, are refused", ['SuiteErrorCode'], [SETTLE], gw, [{ at: 0, apply: st({ grant_id: gid(gm), point: P2.did, spent_uj: 10n, seq: 1n }, P2) }, { at: 0, apply: st({ grant_id: gid(gw), point: mallory.did, spent_uj: 10n, seq: 1n }, mallory) }], { ops: ['ERR_STATEMENT_WRONG_GRANT', 'ERR_STATEMENT_NOT_MEMBER'], totals: [0, 0] }),
    C('overdraft-provable', 'each point alone within budget (600, 700); after settling both ways the ledger binds at 1300 and the overdraft of 300 is provable', ['SiblingConservation'], [SETTLE, OPTIMISTIC, C17], go, [{ at: 0, spend_uj: 600 }, { at: 1, spend_uj: 700 }, { at: 0, statement_to: 1 }, { at: 1, statement_to: 0 }, { at: 0, spend_uj: 1 }, { at: 1, spend_uj: 1 }], { ops: ['allow', 'allow', 'accepted', 'accepted', 'deny:budget-exceeded', 'deny:budget-exceeded'], totals: [1300, 1300], overdraft_uj: 300 }),
  ];
}

// ---- efficiency.json: efficiency/1 and coverage (jcp §5.2, C9), traceability (jcp §5.3) ----------------------------

function efficiencyCases(): Case[] {
  const PER_TOKEN = 'jcp/5.2#partial-no-per-token';
  const REFUSE_PER_TOKEN = 'jcp/5.2#verifier-refuses-partial-per-token';
  const ONE_VALUE = 'jcp/5.2#intercept-coverage-one-value';
  const NOT_TOTAL = 'jcp/5.2#partial-not-task-total';
  const hw = (uj: number, coverage?: 'Partial'): JsonObject => ({ measured_uj: uj, estimated_uj: uj - uj / 10, provenance: 'HwShunt', ...(coverage ? { coverage } : {}) });
  const S = (name: string, comment: string, flags: string[], clauses: string[], energy: JsonObject, accepted_tokens: number, intent: Intent): Case => ({ pack: 'efficiency', name, type: 'EfficiencySeal', comment, flags: ['Canonical', ...flags], clauses, inputs: { energy, accepted_tokens }, intent });
  const R = (name: string, comment: string, flags: string[], clauses: string[], payload: JsonObject, intent: Intent): Case => ({ pack: 'efficiency', name, type: 'EfficiencyRead', comment, flags, clauses, inputs: { payload }, intent });
  const T = (name: string, comment: string, flags: string[], energy: JsonObject, intent: Intent): Case => ({ pack: 'efficiency', name, type: 'TaskTotal', comment, flags: ['PartialTotal', ...flags], clauses: [NOT_TOTAL], inputs: { energy }, intent });
  // jcp §5.3: activities are named by content-id (§3); a figure is {uj, provenance, coverage?}
  const act = (label: string): string => contentId({ activity: label });
  const fig = (uj: number, provenance: string, coverage?: 'Partial'): JsonObject => ({ uj, provenance, ...(coverage ? { coverage } : {}) });
  const A = act('a');
  const B = act('b');
  const C = act('c');
  const acts: JsonObject = { [A]: fig(400, 'HwShunt'), [B]: fig(500, 'HwShunt'), [C]: fig(300, 'HwShunt') };
  const TR = (name: string, comment: string, flags: string[], clauses: string[], outcome: JsonObject, ids: string[], activities: JsonObject, intent: Intent): Case => ({ pack: 'efficiency', name, type: 'Trace', comment, flags, clauses, inputs: { outcome, activity_ids: ids, activities }, intent });
  const NAMED = ['jcp/5.3#outcome-names-activities', 'jcp/5.3#activities-resolvable'];
  // jcp §5.2 totals over efficiency/1 receipts (the payloads as a verifier reads them)
  const PER_UNIT = 'jcp/5.2#partial-total-no-per-unit';
  const pay = (energy_uj: number, provenance: string, partial = false, extra: JsonObject = {}): JsonObject => ({ energy_uj, provenance, accepted_tokens: 10, ...(partial ? { energy_coverage: 'Partial' } : {}), ...extra });
  const TT = (name: string, comment: string, flags: string[], clauses: string[], payloads: JsonObject[], units: number, intent: Intent): Case => ({ pack: 'efficiency', name, type: 'EfficiencyTotals', comment, flags, clauses, inputs: { payloads, units }, intent });
  const FLOOR = 'jcp/5.3#aggregation-no-grade-improvement';
  return [
    S('seal-whole-headline', 'a Whole HwShunt figure of 1 000 000 µJ over 250 accepted tokens: energy_coverage omitted, uj_per_accepted_token 4000; exact payload bytes', [], [PER_TOKEN, ONE_VALUE], hw(1_000_000), 250, { outputs: { 'payload.energy_uj': 1_000_000, 'payload.provenance': 'HwShunt', 'payload.accepted_tokens': 250, 'payload.uj_per_accepted_token': 4000 }, absent: ['payload.energy_coverage'] }),
    S('seal-whole-estimator-rounded', 'a Whole Estimator figure of 1000 µJ over 3 tokens: 333 µJ per token, integer µJ rounded down (the suite\'s reading: canonical CBOR carries no floats and §5.2 names no rounding)', [], [PER_TOKEN, ONE_VALUE], { estimated_uj: 1000, provenance: 'Estimator' }, 3, { outputs: { 'payload.energy_uj': 1000, 'payload.provenance': 'Estimator', 'payload.uj_per_accepted_token': 333 }, absent: ['payload.energy_coverage'] }),
    S('seal-partial-no-headline', 'a Partial HwShunt figure over 10 tokens seals energy_coverage "Partial" and no uj_per_accepted_token; exact payload bytes', ['EfficiencyHeadline'], [PER_TOKEN], hw(1000, 'Partial'), 10, { outputs: { 'payload.energy_uj': 1000, 'payload.energy_coverage': 'Partial', 'payload.accepted_tokens': 10 }, absent: ['payload.uj_per_accepted_token'] }),
    R('read-partial-with-headline', 'a Partial efficiency/1 payload carrying uj_per_accepted_token is refused', ['EfficiencyHeadline', 'SuiteErrorCode'], [REFUSE_PER_TOKEN], { energy_uj: 1000, provenance: 'HwShunt', energy_coverage: 'Partial', accepted_tokens: 10, uj_per_accepted_token: 100 }, { error: 'ERR_EFFICIENCY_PARTIAL_HEADLINE' }),
    R('read-partial-without-headline', 'a Partial payload without the headline reads as Partial', ['EfficiencyHeadline'], [REFUSE_PER_TOKEN], { energy_uj: 1000, provenance: 'HwShunt', energy_coverage: 'Partial', accepted_tokens: 10 }, { outputs: { energy_uj: 1000, provenance: 'HwShunt', coverage: 'Partial' } }),
    R('read-whole-with-headline', 'a payload with no energy_coverage is Whole and may carry the headline', ['CoverageOneValue'], [REFUSE_PER_TOKEN, ONE_VALUE], { energy_uj: 1000, provenance: 'ModelBased', accepted_tokens: 10, uj_per_accepted_token: 100 }, { outputs: { energy_uj: 1000, provenance: 'ModelBased' }, absent: ['coverage'] }),
    R('read-coverage-whole-spelled', 'energy_coverage "Whole" is refused, not read either way', ['CoverageOneValue', 'SuiteErrorCode'], [ONE_VALUE], { energy_uj: 1000, provenance: 'HwShunt', energy_coverage: 'Whole', accepted_tokens: 10, uj_per_accepted_token: 100 }, { error: 'ERR_ENERGY_COVERAGE_VALUE' }),
    R('read-coverage-lowercase', 'energy_coverage "partial" (not the one value) is refused', ['CoverageOneValue', 'SuiteErrorCode'], [ONE_VALUE], { energy_uj: 1000, provenance: 'HwShunt', energy_coverage: 'partial', accepted_tokens: 10 }, { error: 'ERR_ENERGY_COVERAGE_VALUE' }),
    T('total-whole', 'a Whole HwShunt figure is a task total: its measured 1000 µJ', [], hw(1000), { outputs: { total_uj: 1000 } }),
    T('total-partial-refused', 'a Partial figure is refused as a task total', ['SuiteErrorCode'], hw(1000, 'Partial'), { error: 'ERR_ENERGY_PARTIAL_NOT_TOTAL' }),
    TT('totals-whole', 'two Whole receipts (1000 µJ HwShunt, 2000 µJ ModelBased) over 4 units: 3000 µJ, floor ModelBased, 750 µJ per unit', ['GradeFloor'], [PER_UNIT], [pay(1000, 'HwShunt'), pay(2000, 'ModelBased')], 4, { outputs: { energy_uj: 3000, provenance_floor: 'ModelBased', units: 4, uj_per_unit: 750 }, absent: ['coverage'] }),
    TT('totals-one-partial', 'one Partial receipt among Whole ones: the total is Partial and gives no per-unit figure', ['PartialTotal'], [PER_UNIT], [pay(1000, 'HwShunt'), pay(2000, 'HwShunt', true), pay(500, 'HwShunt')], 4, { outputs: { energy_uj: 3500, provenance_floor: 'HwShunt', coverage: 'Partial', units: 4 }, absent: ['uj_per_unit'] }),
    TT('totals-estimator-floor', 'an Estimator receipt among HwShunt ones: the floor is Estimator, never the best', ['GradeFloor'], [PER_UNIT], [pay(100, 'HwShunt'), pay(100, 'Estimator')], 2, { outputs: { energy_uj: 200, provenance_floor: 'Estimator', uj_per_unit: 100 } }),
    TT('totals-partial-headline-refused', 'a Partial receipt carrying uj_per_accepted_token refuses the total rather than being summed', ['EfficiencyHeadline', 'SuiteErrorCode'], [REFUSE_PER_TOKEN, PER_UNIT], [pay(1000, 'HwShunt'), pay(2000, 'HwShunt', true, { uj_per_accepted_token: 200 })], 4, { error: 'ERR_EFFICIENCY_PARTIAL_HEADLINE' }),
    TT('totals-coverage-whole-refused', 'a receipt whose energy_coverage is "Whole" refuses the total', ['CoverageOneValue', 'SuiteErrorCode'], [ONE_VALUE, PER_UNIT], [pay(1000, 'HwShunt'), pay(5, 'HwShunt', false, { energy_coverage: 'Whole' })], 4, { error: 'ERR_ENERGY_COVERAGE_VALUE' }),
    TR('trace-residual-positive', 'outcome 1000 µJ over activities 400 + 500: residual +100 named, composite HwShunt Whole', ['ResidualSigned'], ['jcp/5.3#difference-named', ...NAMED], fig(1000, 'HwShunt'), [A, B], acts, { outputs: { residual_uj: 100, activities_uj: 900, provenance: 'HwShunt' }, absent: ['coverage'] }),
    TR('trace-residual-negative', 'outcome 1000 µJ over activities 400 + 500 + 300: residual −200 stays negative, never clamped to 0', ['ResidualSigned'], ['jcp/5.3#residual-not-clamped', 'jcp/5.3#difference-named', ...NAMED], fig(1000, 'HwShunt'), [A, B, C], acts, { outputs: { residual_uj: -200, activities_uj: 1200 } }),
    TR('trace-bound-twice', 'an 800 µJ outcome naming activity a (400) twice would balance exactly: refused before the sum', ['BoundTwice', 'SuiteErrorCode'], ['jcp/5.3#activity-bound-twice-refused'], fig(800, 'HwShunt'), [A, A], acts, { error: 'ERR_TRACE_ACTIVITY_BOUND_TWICE' }),
    TR('trace-bound-twice-among-others', 'a, b, then a again: refused, whatever the residual would have been', ['BoundTwice', 'SuiteErrorCode'], ['jcp/5.3#activity-bound-twice-refused'], fig(2000, 'HwShunt'), [A, B, A], acts, { error: 'ERR_TRACE_ACTIVITY_BOUND_TWICE' }),
    TR('trace-provenance-floor', 'a HwShunt outcome with one ModelBased activity: the composite is ModelBased, never the best', ['GradeFloor'], [FLOOR, ...NAMED], fig(1000, 'HwShunt'), [A, B], { [A]: fig(400, 'HwShunt'), [B]: fig(500, 'ModelBased') }, { outputs: { provenance: 'ModelBased', residual_uj: 100 } }),
    TR('trace-estimator-outcome-floor', 'an Estimator outcome over HwShunt activities: the whole trace is Estimator', ['GradeFloor'], [FLOOR, ...NAMED], fig(1000, 'Estimator'), [A, B], acts, { outputs: { provenance: 'Estimator' } }),
    TR('trace-coverage-floor', 'one Partial activity makes the composite Partial; provenance stays HwShunt', ['GradeFloor'], [FLOOR, ...NAMED], fig(1000, 'HwShunt'), [A, C], { [A]: fig(400, 'HwShunt'), [C]: fig(300, 'HwShunt', 'Partial') }, { outputs: { provenance: 'HwShunt', coverage: 'Partial', residual_uj: 300 } }),
    TR('trace-no-activity', 'an outcome naming no activity is not traced', ['Untraceable', 'SuiteErrorCode'], ['jcp/5.3#outcome-names-activities', 'jcp/5.3#untraceable-not-presented'], fig(1000, 'HwShunt'), [], acts, { error: 'ERR_TRACE_UNTRACEABLE' }),
    TR('trace-unresolved', 'an activity id that resolves to no activity is refused', ['Untraceable', 'SuiteErrorCode'], ['jcp/5.3#activities-resolvable'], fig(1000, 'HwShunt'), [A, act('missing')], acts, { error: 'ERR_TRACE_UNRESOLVED' }),
  ];
}

/** Every case of conformance/v1, pack by pack, in a stable order. */
export function allCases(): Case[] {
  return [...grantCases(), ...chainCases(), ...decisionCases(), ...receiptCases(), ...legacyCases(), ...caveatCases(), ...moneyCases(), ...standingCases(), ...channelCases(), ...efficiencyCases(), ...promotedCases(), ...jcCases(), ...profileCases()];
}
