// The named cases of the runtime group (vectors/profiles/runtime.ts), profile by profile. Each expected answer is
// written here from the spec's words, never read from the reference: §1.2's two conditions and §4's fallback rule,
// §18.2's feature order, §22.3's refusal of an unrecordable action, §11's handle derivation (§8) and signature checked
// with @noble/curves over a canonical JSON written here, §6's three matched fields taken from the walk a §2 receipt
// carries, §7's stable tier tags, §17.1's fields and command_hash (BLAKE3 with @noble/hashes), §17.3's in-flight rule.
// Inputs are built from fixed seeds (deriveSeed('jcp-vectors/v1:<name>')), fixed clocks and fixed nonces; the one
// grant of the P-LOGGED cases is minted with the reference (its bytes are inputs, as in vectors/jc-cases.ts).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { toHex } from '../../impl/bytes.ts';
import { encodeCanonical, type CborInput } from '../../impl/cbor/index.ts';
import { deriveSeed, keyPairFromSeed } from '../../impl/identity/ed25519.ts';
import { contentId } from '../../impl/jcp/content-id.ts';
import { signedGrantToCbor } from '../../impl/jcp/codec.ts';
import { grantId, mintGrant } from '../../impl/jcp/grant.ts';
import type { Case } from '../cases.ts';
import type { Json, JsonObject } from '../model.ts';

const P = 'profiles' as const;
const utf8 = new TextEncoder();
const b3 = (b: Uint8Array): string => toHex(nobleBlake3(b));
const seed = (label: string): Uint8Array => deriveSeed(`jcp-vectors/v1:${label}`);
const exactly = (e: JsonObject, result: 'valid' | 'invalid' = 'valid') => ({ exactly: e, result });
const C = (type: Case['type'], name: string, comment: string, flags: string[], clauses: string[], inputs: JsonObject, expected: JsonObject, result: 'valid' | 'invalid' = 'valid'): Case => ({ pack: P, name, type, comment, flags, clauses, inputs, intent: exactly(expected, result) });

// ---- jouleclaw:P-CLAIMS -----------------------------------------------------------------------------------------

const PREFER = 'jouleclaw/1.2#prefer-fresh-retrieval';
const EMITS = 'jouleclaw/1.2#retriever-emits-claim-provenance';
const CARRIES = 'jouleclaw/4#claim-carries-provenance';
const NO_SYNTH = 'jouleclaw/4#no-synthesised-as-retrieved';
const EMPTY = 'jouleclaw/4#claims-empty-on-model-fallback';

interface Source {
  source: string;
  content: Uint8Array;
  trust_tier: number;
  cost_uj: number;
  outcome: 'closes' | 'unresolvable';
}
const src = (source: string, trust_tier: number, cost_uj: number, outcome: Source['outcome'], content = utf8.encode(`<html>${source} as fetched</html>`)): Source => ({ source, content, trust_tier, cost_uj, outcome });

function claimsCases(): Case[] {
  const NOW = '2026-06-08T12:00:00Z';
  const INFERENCE = 3_500_000;
  const out: Case[] = [];
  const Q = (name: string, comment: string, threshold: number, sources: Source[], inference = INFERENCE): void => {
    // §1.2: retrieval is preferred "whenever" fetch + extract costs below the inference AND the trust tier is above the
    // operator's threshold (both strict); the preference binds where such a source's content closes the query
    const preferred = sources.some((s) => s.cost_uj < inference && s.trust_tier > threshold && s.outcome === 'closes');
    const anyCloses = sources.some((s) => s.outcome === 'closes');
    // every claim, whatever the resolution: a whole §4 envelope, of a source offered and fetched
    const always = { envelopes_whole: true, claims_retrieved: true };
    let expected: JsonObject;
    let clauses: string[];
    let flags: string[];
    if (preferred) {
      // a resolution by retrieval (its tier tag is the testee's: not L3 Model or L4 Wire), emitting the closing fact's envelope
      expected = { resolution: 'retrieval', claims_empty: false, cites_closing: true, ...always };
      clauses = [PREFER, EMITS, CARRIES, NO_SYNTH];
      flags = ['FreshRetrieval'];
    } else if (!anyCloses) {
      // §4: "the receipt's claims array MUST remain empty for that tier and the resolution carries the L3:Model tag"
      expected = { resolution: 'L3', claims_empty: true, cites_closing: false, ...always };
      clauses = [EMPTY, NO_SYNTH];
      flags = ['ModelFallback'];
    } else {
      // a source closes but none meets both conditions: retrieval or the model, the testee's choice (left out)
      expected = always;
      clauses = [CARRIES, NO_SYNTH];
      flags = ['RetrievalOpen'];
    }
    const sourcesJson = sources.map((s) => ({ source: s.source, content: toHex(s.content), trust_tier: s.trust_tier, cost_uj: s.cost_uj, outcome: s.outcome }));
    out.push(C('ClaimsResolve', name, comment, flags, clauses, { now: NOW, threshold, inference_cost_uj: inference, sources: sourcesJson }, expected));
  };
  const TRUSTED = src('https://en.wikipedia.org/wiki/Gemma_(model)', 9, 40, 'closes');
  Q('claims-trusted-cheap', 'threshold 6; one source, trust 9, 40 µJ against a 3.5 J inference, closing: resolved by retrieval, its envelope emitted', 6, [TRUSTED]);
  Q('claims-one-qualifies-among-three', 'a cheap source trusted 2 and a dear one (4 J) trusted 9, both closing, then one meeting both conditions: retrieval is still required', 6, [src('https://a.example/cheap-untrusted', 2, 10, 'closes'), src('https://b.example/dear', 9, 4_000_000, 'closes'), TRUSTED]);
  Q('claims-stale-then-trusted', 'a qualifying source that does not close, then one that does: resolved by retrieval', 6, [src('https://a.example/stale', 9, 40, 'unresolvable'), TRUSTED]);
  Q('claims-just-inside-both', 'trust 7 over threshold 6, cost one µJ below the inference: both conditions hold, retrieval required', 6, [src('https://c.example/edge', 7, INFERENCE - 1, 'closes')]);
  Q('claims-two-qualify', 'two qualifying closing sources: retrieval, citing at least one of them (which, and in what order, is open)', 3, [src('https://d.example/one', 8, 100, 'closes'), src('https://e.example/two', 10, 5, 'closes')]);
  Q('claims-free-fetch-threshold-0', 'threshold 0, a source of trust 1 fetched for 0 µJ: both conditions hold', 0, [src('https://f.example/free', 1, 0, 'closes')]);
  Q('claims-empty-content', 'a qualifying source whose bytes as fetched are empty: its content_hash is BLAKE3 of no bytes', 6, [src('https://g.example/empty', 9, 40, 'closes', new Uint8Array(0))]);
  Q('claims-binary-content', 'a qualifying source whose bytes are not UTF-8 (00 ff fe 80 0a): the hash is over the bytes as fetched', 6, [src('https://h.example/blob', 9, 40, 'closes', Uint8Array.of(0x00, 0xff, 0xfe, 0x80, 0x0a))]);
  Q('claims-trust-at-threshold', 'trust 6 at threshold 6 (not above), cheap and closing: §1.2 does not bind; either resolution, every claim retrieved', 6, [src('https://i.example/at-threshold', 6, 40, 'closes')]);
  Q('claims-cost-at-inference', 'cost equal to the inference (not below), trust 9, closing: §1.2 does not bind; either resolution', 6, [src('https://j.example/at-cost', 9, INFERENCE, 'closes')]);
  Q('claims-threshold-10', 'threshold 10: no trust tier (0..10) is above it, so a closing trust-10 source does not bind', 10, [src('https://k.example/top', 10, 1, 'closes')]);
  Q('claims-only-disqualified-close', 'the only closing sources fail one condition each, the qualifying one does not close: either resolution', 6, [src('https://a.example/cheap-untrusted', 2, 10, 'closes'), src('https://b.example/dear', 9, 4_000_000, 'closes'), src('https://a.example/stale', 9, 40, 'unresolvable')]);
  Q('claims-none-closes', 'two sources fetched, neither closes: the model resolves it, tagged L3, claims empty', 6, [src('https://a.example/stale', 9, 40, 'unresolvable'), src('https://b.example/other', 10, 1, 'unresolvable')]);
  Q('claims-no-sources', 'no source offered: the model resolves it, tagged L3, claims empty', 6, []);
  Q('claims-unresolvable-dear-untrusted', 'sources failing both conditions and not closing: L3, claims empty', 8, [src('https://l.example/dear-untrusted', 1, 9_000_000, 'unresolvable')]);
  return out;
}

// ---- jouleclaw:P-ORCHESTRATOR -----------------------------------------------------------------------------------

const SERIAL = 'jouleclaw/18.2#serial-dispatch-shared-state';
const HANDOFF_BEFORE = 'jouleclaw/18.2#handoff-recorded-before-next';

function orchestratorCases(): Case[] {
  const out: Case[] = [];
  const O = (name: string, comment: string, plan: [string, 'mutates' | 'reads'][]): void => {
    const writers = plan.filter(([, s]) => s === 'mutates').map(([f]) => f);
    // §18.2: writers dispatched in feature order, serially (each after the one before returned), and each writer's
    // handoff on the journal before the next writer is dispatched; a handoff is recorded after its worker returned it:
    // so the writers' events run dispatch, complete, journal, feature by feature. A read-only worker's timing against
    // the others is open (read-only fan-out MAY be parallel); its own events still run dispatch, complete, journal.
    const expected: JsonObject = {
      writers: writers.flatMap((f) => ['dispatch', 'complete', 'journal'].map((e) => `${e} ${f}`)),
      readers: plan.filter(([, s]) => s === 'reads').map(([f]) => ({ feature_id: f, events: ['dispatch', 'complete', 'journal'] })),
    };
    out.push(
      C('OrchestratorRun', name, comment, writers.length > 1 ? ['SerialDispatch'] : ['HandoffBeforeNext'], writers.length > 1 ? [SERIAL, HANDOFF_BEFORE] : [HANDOFF_BEFORE], {
        run_id: `mission-${name}`,
        now_s: 1_780_000_000,
        features: plan.map(([f, state]) => ({ feature_id: f, worker: `did:key:worker-${f}`, state, completed: [`${f}: done`] })),
      }, expected),
    );
  };
  O('orchestrator-writers-between-readers', 'schema (mutates), search-docs and search-code (read), api and migrate (mutate), audit (reads): schema, api, migrate serial in that order', [['schema', 'mutates'], ['search-docs', 'reads'], ['search-code', 'reads'], ['api', 'mutates'], ['migrate', 'mutates'], ['audit', 'reads']]);
  O('orchestrator-two-writers-reverse-ids', 'z then y, both mutating: y dispatched only after z returned and its handoff was journaled (feature order, not id order)', [['z', 'mutates'], ['y', 'mutates']]);
  O('orchestrator-writers-only', 'four writers c, a, d, b: serial, in feature order', [['c', 'mutates'], ['a', 'mutates'], ['d', 'mutates'], ['b', 'mutates']]);
  O('orchestrator-numeric-ids', 'writers 10, 9, 1: feature order, neither numeric nor lexical', [['10', 'mutates'], ['9', 'mutates'], ['1', 'mutates']]);
  O('orchestrator-alternating', 'm1 r1 m2 r2 m3 r3 m4: the four writers serial; every handoff recorded after its worker returned', [['m1', 'mutates'], ['r1', 'reads'], ['m2', 'mutates'], ['r2', 'reads'], ['m3', 'mutates'], ['r3', 'reads'], ['m4', 'mutates']]);
  O('orchestrator-readers-first', 'two readers, then two writers: the writers serial in order', [['scan', 'reads'], ['grep', 'reads'], ['patch', 'mutates'], ['commit', 'mutates']]);
  O('orchestrator-single-writer', 'one writer: dispatched, returned, its handoff journaled', [['only', 'mutates']]);
  O('orchestrator-readers-only', 'three readers (fan-out MAY be parallel): each dispatched, returned and journaled once, in that order', [['r-a', 'reads'], ['r-b', 'reads'], ['r-c', 'reads']]);
  return out;
}

// ---- jouleclaw:P-LOGGED -----------------------------------------------------------------------------------------

const UNRECORDABLE = 'jouleclaw/22.3#refuse-unrecordable-action';

function loggedCases(): Case[] {
  const steward = keyPairFromSeed(seed('steward'));
  const alice = keyPairFromSeed(seed('alice'));
  const bob = keyPairFromSeed(seed('bob'));
  const nonce = nobleBlake3(utf8.encode('jcp-vectors/v1 nonce:logged')).slice(0, 16);
  const TOOL = contentId({ resource: 'tool:search' });
  // alice's root grant to bob: call on TOOL, 1000 µJ, never expiring
  const sg = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1000n, expiry: 0n, nonce });
  const gid = grantId(sg.grant);
  const chain = [toHex(encodeCanonical(signedGrantToCbor(sg)))];
  const COST = 42;
  const step = (action: 'call' | 'write', i: number): Json => ({
    frame: { kind: 'tool-call', trust: 'control', grant_id: gid, action, resource: TOOL, payload_hash: contentId({ payload: 'args' }) },
    chain,
    caller: bob.did,
    cost: { uj: COST, provenance: 'HwShunt' },
    now_s: 100 + i,
  });
  const out: Case[] = [];
  const L = (name: string, comment: string, actions: ('call' | 'write')[], performed: boolean[], extra: JsonObject, flags: string[], clauses = [UNRECORDABLE]): void => {
    const steps = performed.map((p): Json => (p ? { performed: true, recorded: true } : { performed: false }));
    const spent = performed.filter((p) => p).length * COST;
    out.push(C('LoggedDecide', name, comment, flags, clauses, { steward_seed: toHex(steward.seed), ...extra, grant_id: gid, steps: actions.map(step) }, { steps, spent_uj: spent }, performed.every((p) => p) ? 'valid' : 'invalid'));
  };
  // §22.3 "an implementation that cannot record a decision MUST refuse the action rather than perform it unrecorded"
  L('logged-room-for-all', 'a log with no bound: three calls within budget, each performed and recorded, 126 µJ debited', ['call', 'call', 'call'], [true, true, true], {}, []);
  L('logged-full-after-two', 'a log holding at most 2 entries: two calls performed and recorded; the third cannot be recorded, so it is not performed and nothing more is debited', ['call', 'call', 'call'], [true, true, false], { capacity: 2 }, ['UnrecordedAction']);
  L('logged-capacity-0', 'a log with room for nothing: the call that would be allowed is refused, nothing debited', ['call'], [false], { capacity: 0 }, ['UnrecordedAction']);
  L('logged-stays-refused', 'capacity 1: one call performed; the next two, unrecordable, refused; 42 µJ debited', ['call', 'call', 'call'], [true, false, false], { capacity: 1 }, ['UnrecordedAction']);
  L('logged-full-then-deny', 'capacity 2: two calls, then a write the grant does not convey and a call, neither performed', ['call', 'call', 'write', 'call'], [true, true, false, false], { capacity: 2 }, ['UnrecordedAction']);
  // §22.2 "The key MUST be the same principal that seals the receipts": a log under another key cannot record the point's decisions
  L('logged-foreign-log-key', "a log whose heads mallory signs, in front of the steward's point: it cannot record the steward's receipts, so no call is performed", ['call', 'call'], [false, false], { log_seed: toHex(seed('mallory')) }, ['UnrecordedAction'], [UNRECORDABLE, 'jouleclaw/22.2#head-key-is-receipt-sealer']);
  return out;
}

// ---- jouleclaw:P-WORKSPACE (the verifier; its bad-path clause is in vectors/p-cases.ts) ---------------------------

const VERIFY = 'jouleclaw/11#verify-owner-and-signature';
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** base58btc (the Bitcoin alphabet): one "1" per leading zero byte, then the big-endian number in base 58. */
function base58btc(b: Uint8Array): string {
  let n = b.reduce((a, x) => a * 256n + BigInt(x), 0n);
  let s = '';
  while (n > 0n) {
    s = B58[Number(n % 58n)]! + s;
    n /= 58n;
  }
  for (const x of b) {
    if (x !== 0) break;
    s = `1${s}`;
  }
  return s;
}
/** §8: handle = "did:key:z" || base58btc(0xed 0x01 || raw_public_key_32). */
const didKey = (pk: Uint8Array): string => `did:key:z${base58btc(Uint8Array.of(0xed, 0x01, ...pk))}`;
/** Canonical JSON of the values every canonical form writes alike (members sorted, no whitespace; ASCII, hex, integers). */
function canon(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}

function workspaceCases(): Case[] {
  const aliceSeed = seed('alice');
  const bobSeed = seed('bob');
  const alicePk = ed25519.getPublicKey(aliceSeed);
  const bobPk = ed25519.getPublicKey(bobSeed);
  const note = utf8.encode('seventeen bytes!\n');
  const manifest = (handle: string, pk: Uint8Array, size = note.length, entries = true): JsonObject => ({
    jc_workspace: 'workspace/1',
    owner: { handle, public_key: toHex(pk) },
    entries: entries ? [{ path: 'notes/x.md', content_hash: b3(note), size, kind: 'text' }] : [],
  });
  const sign = (m: JsonObject, s: Uint8Array): Uint8Array => ed25519.sign(utf8.encode(canon(m)), s);
  const out: Case[] = [];
  const V = (name: string, comment: string, flags: string[], m: JsonObject, sig: Uint8Array, accepted: boolean, text = canon(m)): void => {
    out.push(C('WorkspaceVerify', name, comment, flags, [VERIFY], { manifest_json: text, signature: toHex(sig) }, { accepted }, accepted ? 'valid' : 'invalid'));
  };
  const good = manifest(didKey(alicePk), alicePk);
  const goodSig = sign(good, aliceSeed);
  V('workspace-verify-own', "alice's handle, alice's key, alice's signature over the canonical manifest: accepted", [], good, goodSig, true);
  V('workspace-verify-no-entries', 'an empty workspace, its owner consistent and the signature good: accepted', [], manifest(didKey(alicePk), alicePk, 0, false), sign(manifest(didKey(alicePk), alicePk, 0, false), aliceSeed), true);
  // §11 signs "the canonical manifest bytes": the JSON as sent is not those bytes, the verifier canonicalises it
  const scrambled = `{ "entries" : [ { "kind" : "text", "size" : 17, "content_hash" : "${b3(note)}", "path" : "notes/x.md" } ], "owner" : { "public_key" : "${toHex(alicePk)}", "handle" : "${didKey(alicePk)}" }, "jc_workspace" : "workspace/1" }`;
  if (canon(JSON.parse(scrambled) as Json) !== canon(good)) throw new Error('runtime-cases: the scrambled manifest is not the good one');
  V('workspace-verify-sent-unsorted', 'the good manifest sent with whitespace and members reversed, the signature over its canonical bytes: accepted', [], good, goodSig, true, scrambled);
  V('workspace-verify-signed-as-sent', 'the same manifest sent unsorted, signed over the bytes as sent rather than its canonical bytes: not accepted', ['ModifiedSignature'], good, ed25519.sign(utf8.encode(scrambled), aliceSeed), false, scrambled);
  const misnamed = manifest(didKey(bobPk), alicePk);
  V('workspace-verify-handle-of-other-key', "bob's handle over alice's key, signed by alice (the signature verifies under the embedded key): not accepted, refused or invalid", ['OwnerHandle'], misnamed, sign(misnamed, aliceSeed), false);
  const notDid = manifest('alice', alicePk);
  V('workspace-verify-handle-not-did-key', 'the handle "alice", no did:key at all, over alice\'s key and signature: not accepted', ['OwnerHandle'], notDid, sign(notDid, aliceSeed), false);
  const otherCodec = manifest(`did:key:z${base58btc(Uint8Array.of(0xec, 0x01, ...alicePk))}`, alicePk);
  V('workspace-verify-handle-other-multicodec', "a did:key over alice's key with the multicodec prefix 0xec 0x01 (X25519), not 0xed 0x01: not accepted", ['OwnerHandle'], otherCodec, sign(otherCodec, aliceSeed), false);
  V('workspace-verify-signed-by-other', "alice's manifest signed by bob: not accepted", ['ModifiedSignature'], good, sign(good, bobSeed), false);
  const flipped = Uint8Array.from(goodSig);
  flipped[10]! ^= 0x01;
  V('workspace-verify-flipped-bit', "alice's signature with one bit flipped: not accepted", ['ModifiedSignature'], good, flipped, false);
  V('workspace-verify-changed-after-signing', "the entry's size 18 under alice's signature over size 17: not accepted", ['ModifiedSignature'], manifest(didKey(alicePk), alicePk, 18), goodSig, false);
  const bobs = manifest(didKey(bobPk), bobPk);
  V('workspace-verify-owner-bob-signed-by-alice', "bob's handle and key, alice's signature: not accepted", ['ModifiedSignature'], bobs, sign(bobs, aliceSeed), false);
  return out;
}

// ---- jouleclaw:P-SIDECAR ----------------------------------------------------------------------------------------

const PER_VECTOR = 'jouleclaw/6#receipt-per-vector';
const HX = (c: string): string => c.repeat(64);

function sidecarCases(): Case[] {
  const out: Case[] = [];
  const tool = (tool_id: string, joules_uj: number, energy_provenance: string): JsonObject => ({ tool_id, joules_uj, energy_provenance });
  const claim = (source: string, h: string): JsonObject => ({ source, content_hash: h, fetched_at: '2026-11-30T04:59:00Z', trust_tier: 9 });
  const S = (name: string, comment: string, tcId: number, walk: JsonObject): void => {
    // §2: a walk's one receipt carries the walk; §6: the receipt must match the canonical receipt's tier,
    // tools_touched[].tool_id and claims[].content_hash, "matches" read as multisets (sorted here)
    const tools = walk['tools_touched'] as JsonObject[];
    const claims = walk['claims'] as JsonObject[];
    const vector: JsonObject = { tcId, comment, flags: [], clauses: ['jouleclaw/2#one-receipt-per-walk'], inputs: { walk } };
    out.push(C('SidecarVector', name, comment, ['ReceiptPerVector'], [PER_VECTOR], { vector }, { tier: walk['tier'] as string, tool_ids: tools.map((t) => t['tool_id'] as string).sort(), content_hashes: claims.map((c) => c['content_hash'] as string).sort() }));
  };
  const base = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', closed_at: '2026-11-30T05:00:00Z', input_hash: HX('a') };
  S('sidecar-section-2-walk', "the §2 walk: L3, three tools, one claim", 1, {
    ...base,
    tier: 'L3',
    joules_uj: 3_500_000,
    tools_touched: [tool('model:gemma4-9b-q5_k_m', 3_000_000, 'HwShunt'), tool('fetch:wikipedia', 400_000, 'Estimator'), tool('rerank', 100_000, 'ModelBased')],
    claims: [claim('https://en.wikipedia.org/wiki/Gemma_(model)', HX('b'))],
  });
  S('sidecar-cache-hit', 'an L0 cache hit: one tool, no claims', 2, { ...base, tier: 'L0', joules_uj: 3, tools_touched: [tool('cache:blake3', 3, 'Estimator')], claims: [] });
  S('sidecar-retrieval-claims', 'an L2 retrieval with three claims out of hash order and two tools', 3, {
    ...base,
    tier: 'L2',
    joules_uj: 900,
    tools_touched: [tool('index:bm25', 600, 'HwShunt'), tool('embed:minilm', 300, 'ModelBased')],
    claims: [claim('https://c.example/', HX('e')), claim('https://a.example/', HX('c')), claim('https://b.example/', HX('d'))],
  });
  S('sidecar-same-tool-twice', 'one tool touched twice and one claim repeated: both kept as multisets', 4, {
    ...base,
    tier: 'L4',
    joules_uj: 20_000_000,
    tools_touched: [tool('wire:frontier', 10_000_000, 'Estimator'), tool('wire:frontier', 10_000_000, 'Estimator')],
    claims: [claim('https://a.example/', HX('f')), claim('https://a.example/', HX('f'))],
  });
  S('sidecar-lawful', 'an L1 deterministic primitive: one tool, no claims', 5, { ...base, tier: 'L1', joules_uj: 7, tools_touched: [tool('lawful:regex', 7, 'HwShunt')], claims: [] });
  return out;
}

// ---- jouleclaw:P-RECEIPT (the clause jouleclaw_receipts.json does not name) ---------------------------------------

const NO_RENUMBER = 'jouleclaw/7#no-renumber-tiers';

function receiptCases(): Case[] {
  // §7: "The cascade tier wire tags (L0–L4) are stable across versions ... MUST NOT renumber existing ones"; §1.1's table
  return ['L0', 'L1', 'L2', 'L3', 'L4'].map((tier) => {
    const walk: JsonObject = {
      id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      closed_at: '2026-11-30T05:00:00Z',
      input_hash: HX('a'),
      tier,
      joules_uj: 1000,
      tools_touched: [{ tool_id: 't', joules_uj: 1000, energy_provenance: 'HwShunt' }],
      claims: [],
    };
    // §2: the receipt's energy_provenance is the worst across tools_touched (one HwShunt tool: HwShunt)
    const receipt: JsonObject = { jc_receipt: '1', ...walk, energy_provenance: 'HwShunt' };
    return C('ReceiptTier', `receipt-tier-${tier}`, `a walk resolved at ${tier} built into its receipt, and a "1" receipt at ${tier} read: ${tier} both times`, ['TierTags'], [NO_RENUMBER], { walk, receipt }, { built_tier: tier, read_tier: tier });
  });
}

// ---- jouleclaw:P-HANDOFF (the clauses jouleclaw_receipts.json does not name) ------------------------------------

const NON_EMPTY = 'jouleclaw/17.2#producer-sets-non-empty-fields';
const DISCRIMINATOR = 'jouleclaw/17.2#discriminator-present';
const CMD_HASH = 'jouleclaw/17.1#command-hash-over-argv';
const ADDITIVE = 'jouleclaw/17.2#consumer-accepts-additive-fields';
const CHAIN = 'jouleclaw/17.2#consumer-verifies-chain';
const NOT_TWICE = 'jouleclaw/17.3#in-flight-not-redispatched';
const INTERRUPTED = 'jouleclaw/17.3#mark-interrupted-on-restart';

/** §17.1 "command_hash MUST be hex BLAKE3 over argv.join("\0")". */
const commandHash = (argv: readonly string[]): string => b3(utf8.encode(argv.join('\0')));

function handoffCases(): Case[] {
  const out: Case[] = [];
  const worker = keyPairFromSeed(seed('jc:worker')).did;
  // the producer: every field non-empty in the run is on the journal, under the HandoffRecorded discriminator
  const R = (name: string, comment: string, flags: string[], clauses: string[], handoff: JsonObject, recorded: JsonObject): void => {
    out.push(C('HandoffRecord', name, comment, flags, clauses, { run_id: `run-${name}`, nodes: [{ node_id: 'n1' }], handoff }, { event: 'HandoffRecorded', handoff: recorded }));
  };
  const full: JsonObject = { worker, node_id: 'n1', feature_id: 'F-001', closed_at: 1_700_000_123, completed: ['parser written'], undone: ['docs'], commands: [{ argv: ['npm', 'test'], exit_code: 1 }], issues_found: ['flaky test'], procedures_followed: ['runbook:release'] };
  R('handoff-record-every-field', 'a handoff with all nine §17.1 fields non-empty: each on the journal as given, the command with its hash', ['HandoffFields'], [NON_EMPTY, DISCRIMINATOR, CMD_HASH], full, { ...full, commands: [{ command_hash: commandHash(['npm', 'test']), argv: ['npm', 'test'], exit_code: 1 }] });
  R('handoff-record-bare', 'a handoff of a worker and a clock only: those two, under the discriminator (empty lists written or not)', ['HandoffFields'], [NON_EMPTY, DISCRIMINATOR], { worker, closed_at: 5 }, { worker, closed_at: 5 });
  R('handoff-record-some-lists', 'undone and two commands (one argv with a space, one of two elements) given, the other lists not: those recorded', ['HandoffFields'], [NON_EMPTY, DISCRIMINATOR, CMD_HASH], { worker, feature_id: 'F-002', closed_at: 1_700_000_200, undone: ['migration', 'docs'], commands: [{ argv: ['a b'], exit_code: 0 }, { argv: ['a', 'b'], exit_code: 2 }] }, { worker, feature_id: 'F-002', closed_at: 1_700_000_200, undone: ['migration', 'docs'], commands: [{ command_hash: commandHash(['a b']), argv: ['a b'], exit_code: 0 }, { command_hash: commandHash(['a', 'b']), argv: ['a', 'b'], exit_code: 2 }] });

  // the consumer: journals laid out here from the suite's entry definition (harness/protocol/testee.cddl): an entry is
  // the canonical CBOR of {seq, ? prev, event: {event, …}, hash}, hash = hex BLAKE3 of the entry without it
  const chainUp = (events: CborInput[]): string[] => {
    let prev: string | undefined;
    return events.map((event, seq) => {
      const body: Record<string, CborInput> = { seq, ...(prev !== undefined ? { prev } : {}), event };
      const hash = b3(encodeCanonical(body));
      prev = hash;
      return toHex(encodeCanonical({ ...body, hash }));
    });
  };
  const start: CborInput = { event: 'RunStarted', run_id: 'run-consumer', nodes: [{ node_id: 'n1', replay: 'never' }] };
  const handoffCbor = (extra: Record<string, CborInput> = {}): Record<string, CborInput> => ({ worker, closed_at: 9, completed: ['x'], undone: [], commands: [{ command_hash: commandHash(['make']), argv: ['make'], exit_code: 0 }], issues_found: [], procedures_followed: [], ...extra });
  const read = { worker, closed_at: 9, completed: ['x'], commands: [{ command_hash: commandHash(['make']), argv: ['make'], exit_code: 0 }] };
  const K = (name: string, comment: string, flags: string[], clauses: string[], entries: string[], expected: JsonObject, result: 'valid' | 'invalid' = 'valid'): void => {
    out.push(C('HandoffConsume', name, comment, flags, clauses, { entries }, expected, result));
  };
  K('handoff-consume-plain', 'a run started and one handoff recorded, chained: the handoff read', [], [CHAIN], chainUp([start, { event: 'HandoffRecorded', handoff: handoffCbor() }]), { handoffs: [read], in_flight: [] });
  K('handoff-consume-additive-handoff-field', 'the handoff carries tokens_used, a field this consumer does not know, chained in: accepted, the handoff read', ['AdditiveFields'], [ADDITIVE], chainUp([start, { event: 'HandoffRecorded', handoff: handoffCbor({ tokens_used: 1234 }) }]), { handoffs: [read], in_flight: [] });
  K('handoff-consume-additive-event-field', 'the HandoffRecorded event carries recorded_by_version beside its handoff: accepted', ['AdditiveFields'], [ADDITIVE], chainUp([start, { event: 'HandoffRecorded', recorded_by_version: '1.4', handoff: handoffCbor() }]), { handoffs: [read], in_flight: [] });
  K('handoff-consume-unknown-variant', 'an event of a variant this consumer does not know (NodeAnnotated), chained between two handoffs: accepted, both handoffs read', ['AdditiveFields'], [ADDITIVE], chainUp([start, { event: 'HandoffRecorded', handoff: handoffCbor() }, { event: 'NodeAnnotated', note: 'added by a later minor' }, { event: 'HandoffRecorded', handoff: handoffCbor({ closed_at: 10 }) }]), { handoffs: [read, { ...read, closed_at: 10 }], in_flight: [] });
  // contrast: the additive field written into an entry after it was hashed is an edit, not an extension
  const edited = chainUp([start, { event: 'HandoffRecorded', handoff: handoffCbor() }]);
  const body1: Record<string, CborInput> = { seq: 1, prev: b3(encodeCanonical({ seq: 0, event: start })), event: { event: 'HandoffRecorded', handoff: handoffCbor() } };
  const h1 = b3(encodeCanonical(body1));
  if (toHex(encodeCanonical({ ...body1, hash: h1 })) !== edited[1]) throw new Error('runtime-cases: the journal laid out twice disagrees');
  edited[1] = toHex(encodeCanonical({ ...body1, event: { event: 'HandoffRecorded', handoff: handoffCbor({ tokens_used: 1234 }) }, hash: h1 }));
  K('handoff-consume-field-added-unchained', 'tokens_used added to the handoff after its entry was hashed (hash left as it was): the chain does not verify, refused', ['AdditiveFields', 'SuiteErrorCode'], [CHAIN], edited, { error: 'ERR_JOURNAL_CHAIN_BROKEN' }, 'invalid');

  // §17.3 "A dispatched node that is not yet recorded is in flight, and MUST NOT be dispatched again."
  const D = (name: string, comment: string, clauses: string[], nodes: JsonObject[], ops: JsonObject[], answers: JsonObject[], inFlight: string[]): void => {
    out.push(C('RunDispatch', name, comment, ['InFlight', 'SuiteErrorCode'], clauses, { run_id: `run-${name}`, nodes, ops }, { ops: answers, in_flight: [...inFlight].sort() }, 'invalid'));
  };
  const ok = { ok: true };
  const inFlightErr = { error: 'ERR_NODE_IN_FLIGHT' };
  const notRecovered = { error: 'ERR_RUN_NOT_RECOVERED' };
  D('run-in-flight-not-twice', 'read (safe) and pay (never) dispatched; each dispatched again while in flight: refused, safe or not', [NOT_TWICE], [{ node_id: 'read', replay: 'safe' }, { node_id: 'pay' }], [{ dispatch: 'read' }, { dispatch: 'pay' }, { dispatch: 'pay' }, { dispatch: 'read' }], [ok, ok, inFlightErr, inFlightErr], ['pay', 'read']);
  D('run-in-flight-after-restart', 'read and pay dispatched, the process dies, the run reopened: both found in flight, neither dispatched again', [NOT_TWICE], [{ node_id: 'read', replay: 'safe' }, { node_id: 'pay' }], [{ dispatch: 'read' }, { dispatch: 'pay' }, { restart: true }, { dispatch: 'pay' }, { dispatch: 'read' }], [ok, ok, { in_flight: ['pay', 'read'] }, notRecovered, notRecovered], ['pay', 'read']);
  D('run-completed-leaves-flight', 'a dispatched and completed, b dispatched: b dispatched again refused; only b in flight', [NOT_TWICE], [{ node_id: 'a' }, { node_id: 'b' }], [{ dispatch: 'a' }, { complete: 'a', energy_uj: 10 }, { dispatch: 'b' }, { dispatch: 'b' }], [ok, ok, ok, inFlightErr], ['b']);
  D('run-safe-new-attempt-once', 's (safe) dispatched, the run reopened and recovered (s interrupted): s dispatched as a new attempt, then refused while that attempt is in flight', [NOT_TWICE, INTERRUPTED], [{ node_id: 's', replay: 'safe' }], [{ dispatch: 's' }, { restart: true }, { recover: true }, { dispatch: 's' }, { dispatch: 's' }], [ok, { in_flight: ['s'] }, { interrupted: ['s'] }, ok, inFlightErr], ['s']);
  return out;
}

/** Every case of the runtime group, profile by profile, in a stable order. */
export function runtimeCases(): Case[] {
  return [...claimsCases(), ...orchestratorCases(), ...loggedCases(), ...workspaceCases(), ...sidecarCases(), ...receiptCases(), ...handoffCases()];
}
