// The fuzz targets: the parsers a hostile peer reaches. Each takes one input and answers what became of it — accepted,
// refused with a typed code, or a break (an accepted input that does not round-trip to its own bytes, or two readers
// of one format that disagree). Anything else it throws is an untyped throw: a finding (harness/fuzz/run.ts).
//   cbor           the det-CBOR decoder (jcp §3): an accept re-encodes to the same bytes
//   grant          decode and parse a signed grant (jcp §4): an accept re-encodes to the same bytes
//   receipt        verify a sealed receipt (jcp §8): the one-pass reader and the strict path agree; an accept's core
//                  re-encodes to its payload. Half the inputs change the core and are re-sealed, so the parser behind
//                  the signature is reached too
//   testee-client  the testee protocol's reader of responses (harness/protocol): frames split at random, each
//                  response checked against its operation's shape; an accept re-encodes to the frame's body
//   certificate    verify a conformance certificate (harness/report/certificate.ts): half the inputs are a changed
//                  protected header and payload re-signed by the development key
//   wire           the jcp/1 endpoint (jcp §11): random streams of frames through its frame reader, each body answered by
//                  the endpoint; every answer is a well-formed reply, none from an error the endpoint did not type
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../../impl/cbor/index.ts';
import { bytesEqual, toHex } from '../../impl/bytes.ts';
import { isJcpError } from '../../impl/errors.ts';
import { blake3 } from '../../impl/hash/blake3.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed } from '../../impl/identity/ed25519.ts';
import { attenuate } from '../../impl/jcp/attenuate.ts';
import { parseSignedGrant, signedGrantToCbor } from '../../impl/jcp/codec.ts';
import { contentId } from '../../impl/jcp/content-id.ts';
import { createEnforcementPoint } from '../../impl/jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../../impl/jcp/grant.ts';
import type { SignedGrant } from '../../impl/jcp/types.ts';
import { coreToCbor } from '../../impl/receipt/core.ts';
import { signSign1 } from '../../impl/cose/sign1.ts';
import { stewardKid } from '../../impl/receipt/seal.ts';
import { _verifyReceiptStrict, verifyReceipt } from '../../impl/receipt/verify.ts';
import { decodeWireReply, decodeWireRequest, encodeWireRequest, frameMessage, signWireRequest, WireFrameReader } from '../../impl/wire/codec.ts';
import { createMemoryWireGate, createWireServer, UNTYPED_REFUSAL_PREFIX } from '../../impl/wire/server.ts';
import { TesteeFailure, readHello } from '../implementation.ts';
import { encodeFrame, FrameReader, FramingError } from '../protocol/framing.ts';
import { OPS, validateResponse, type Shape } from '../protocol/schema.ts';
import { CertificateError, developmentKey, verifyCertificate } from '../report/certificate.ts';
import { sampleCertificatePayload } from '../report/certificate-sample.ts';
import { Rng } from './inputs.ts';

/** What became of one input. */
export type Verdict = { readonly kind: 'accepted' } | { readonly kind: 'refused'; readonly code: string } | { readonly kind: 'break'; readonly what: string };

/**
 * A fuzz target: its seed corpus and how it takes one input (`r` draws what else the input needs, e.g. chunking or
 * re-sealing). `asIs` (a regression input, replayed exactly) takes the input as the whole message, never re-sealed.
 */
export interface Target {
  readonly name: string;
  readonly corpus: readonly Uint8Array[];
  run(input: Uint8Array, r: Rng, asIs?: boolean): Verdict | Promise<Verdict>;
}

const ACCEPTED: Verdict = { kind: 'accepted' };
const refused = (code: string): Verdict => ({ kind: 'refused', code });

/** A typed refusal's code, or undefined for anything else (the runner counts that as an untyped throw). */
export function typedCode(e: unknown): string | undefined {
  if (isJcpError(e)) return e.code;
  if (e instanceof FramingError) return `framing:${e.kind}${e.cause_code ? `:${e.cause_code}` : ''}`;
  if (e instanceof TesteeFailure) return `testee:${e.kind}`;
  // a certificate refusal from the COSE or CBOR layer names that layer's code first
  if (e instanceof CertificateError) return `certificate${/^(ERR_[A-Z0-9_]+):/.exec(e.message)?.[1]?.replace(/^/, ':') ?? ''}`;
  return undefined;
}

// ---- the seed corpus: deterministic keys, grants, receipts and requests -------------------------------------------------

const NOW_S = 1_700_000_000n;
const steward = keyPairFromSeed(deriveSeed('fuzz:steward'));
const issuer = keyPairFromSeed(deriveSeed('fuzz:issuer'));
const holder = keyPairFromSeed(deriveSeed('fuzz:holder'));
const child = keyPairFromSeed(deriveSeed('fuzz:child'));
const resource = contentId({ resource: 'fuzz-tool' });
const nonce = (n: number) => blake3(Uint8Array.of(n)).slice(0, 16);

function grants(): SignedGrant[] {
  const root = mintGrant(issuer, { subject: holder.did, resource, actions: ['call', 'read'], budget_uj: 1n << 40n, nonce: nonce(1) });
  const caveated = mintGrant(issuer, {
    subject: holder.did,
    resource,
    actions: ['call'],
    budget_uj: 5_000_000n,
    expiry: NOW_S + 3600n,
    delegate_depth: 3n,
    budget_funds: { currency: 'EUR', minor: 500n },
    caveats: [{ ActionIn: ['call'] }, { NotBefore: NOW_S - 60n }, { MaxCostUj: 10_000n }, { CallerIs: holder.did }],
    nonce: nonce(2),
  });
  const delegated = attenuate(caveated, holder, { subject: child.did, budget_uj: 1_000_000n, add_caveats: [{ PayloadIs: contentId({ payload: 1 }) }], nonce: nonce(3) });
  return [root, caveated, delegated];
}

const GRANTS = grants();
const grantBytes = (g: SignedGrant) => encodeCanonical(signedGrantToCbor(g));

function frameFor(g: SignedGrant, k: number) {
  return { kind: 'tool-call', trust: 'control', grant_id: grantId(g.grant), action: 'call', resource, payload_hash: contentId({ payload: k }) } as const;
}

function receipts(): Uint8Array[] {
  const point = createEnforcementPoint({ steward });
  const out: Uint8Array[] = [];
  const chains: SignedGrant[][] = [[GRANTS[0]!], [GRANTS[1]!], [GRANTS[1]!, GRANTS[2]!]];
  chains.forEach((chain, i) => {
    const caller = chain.length === 1 ? holder.did : child.did;
    for (const uj of [1_000n, 50_000n]) {
      const d = point.decide({ frame: frameFor(chain.at(-1)!, i), chain, caller, cost: { uj, provenance: 'Estimator' }, now_s: NOW_S });
      out.push(d.receipt);
    }
  });
  return out;
}

function wireRequests(): Uint8Array[] {
  return GRANTS.slice(0, 2).flatMap((g, i) =>
    [1_000n, 7n].map((uj, k) =>
      encodeWireRequest(signWireRequest({ frame: frameFor(g, 10 * i + k), chain: [g], caller: holder.did, cost: { uj, provenance: 'ModelBased', ...(k ? { coverage: 'Partial' as const } : {}) }, now: NOW_S }, holder)),
    ),
  );
}

// ---- testee-protocol responses: a value of each operation's result shape ------------------------------------------------

function sample(shape: Shape, r: Rng, depth = 0): CborInput {
  if (shape === 'text') return r.pick(['', 'x', 'did:key:z6Mk', 'deny']);
  if (shape === 'uint') return r.pick([0, 1, 23, 24, 255, 65_536]);
  if (shape === 'bytes') return r.bytes(r.below(40));
  if (shape === 'bytes16' || shape === 'bytes32' || shape === 'bytes64') return r.bytes(Number(shape.slice(5)));
  if (shape === 'any') return depth > 2 ? 0 : r.pick<CborInput>([1, 'a', [], new Map()]);
  if ('enum' in shape) return r.pick(shape.enum);
  if ('array' in shape) return Array.from({ length: Math.max(shape.min ?? 0, depth > 2 ? 0 : r.below(3)) }, () => sample(shape.array, r, depth + 1));
  if ('textMap' in shape) return depth > 2 ? {} : { a: sample(shape.textMap, r, depth + 1) };
  const m: Record<string, CborInput> = {};
  for (const [k, s] of Object.entries(shape.map)) if (!shape.optional?.includes(k) || r.below(2)) m[k] = sample(s, r, depth + 1);
  return m;
}

const OP_NAMES = Object.keys(OPS).sort();

function responses(): Uint8Array[] {
  const r = new Rng(0x7e57ee);
  const out: Uint8Array[] = [];
  for (const op of OP_NAMES) out.push(encodeCanonical({ seq: 1, ok: sample(OPS[op]!.result, r) }));
  out.push(encodeCanonical({ seq: 1, error: { code: 'ERR_BAD_ARGUMENT', message: 'no' } }), encodeCanonical({ seq: 1, unimplemented: 'not here' }));
  return out;
}

/** Splits `b` into one to four chunks at random places. */
function chunks(b: Uint8Array, r: Rng): Uint8Array[] {
  const cuts = Array.from({ length: r.below(4) }, () => r.below(b.length + 1)).sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const c of [...cuts, b.length]) {
    out.push(b.subarray(at, c));
    at = c;
  }
  return out;
}

// ---- the targets -----------------------------------------------------------------------------------------------------

const cbor: Target = {
  name: 'cbor',
  corpus: [
    encodeCanonical({ a: 1, bb: [1, -1, 2n ** 64n - 1n, -(2n ** 63n)], c: new Uint8Array(3), d: { e: 'text', f: [] } }),
    encodeCanonical([0, 23, 24, 255, 256, 65_535, 65_536, 2 ** 32, 'ü', ''.padEnd(30, 'x')]),
    ...GRANTS.map(grantBytes),
  ],
  run(input) {
    const v = decodeCanonical(input, { allowTags: [18] });
    const again = encodeCanonical(v as CborInput, { allowTags: true });
    return bytesEqual(again, input) ? ACCEPTED : { kind: 'break', what: `accepted, but re-encodes to ${toHex(again)}` };
  },
};

const grant: Target = {
  name: 'grant',
  corpus: GRANTS.map(grantBytes),
  run(input) {
    const sg = parseSignedGrant(decodeCanonical(input));
    const again = grantBytes(sg);
    return bytesEqual(again, input) ? ACCEPTED : { kind: 'break', what: `parsed, but the grant re-encodes to ${toHex(again)}` };
  },
};

const RECEIPTS = receipts();
/** The core of each corpus receipt: in the re-sealed half, a mutated core is sealed by the steward, so its signature verifies. */
const CORES = RECEIPTS.map((b) => encodeCanonical(coreToCbor(verifyReceipt(b).core)));

const receipt: Target = {
  name: 'receipt',
  corpus: [...RECEIPTS, ...CORES],
  run(input, r, asIs) {
    // half the inputs: a mutated core under a good signature (the input then is the core; the envelope is made here)
    const bytes = !asIs && r.below(2) ? signSign1(input, stewardKid(steward.did), steward.seed, defaultEd25519()) : input;
    let fast: unknown;
    let strict: unknown;
    let fastCode: string | undefined;
    let strictCode: string | undefined;
    try {
      fast = verifyReceipt(bytes);
    } catch (e) {
      fastCode = typedCode(e);
      if (fastCode === undefined) throw e;
    }
    try {
      strict = _verifyReceiptStrict(bytes);
    } catch (e) {
      strictCode = typedCode(e);
      if (strictCode === undefined) throw e;
    }
    if (fastCode !== strictCode) return { kind: 'break', what: `the one-pass reader answers ${fastCode ?? 'accepted'}, the strict path ${strictCode ?? 'accepted'}` };
    if (fastCode !== undefined) return refused(fastCode);
    const core = (fast as { core: Parameters<typeof coreToCbor>[0]; payload: Uint8Array }).core;
    const payload = (strict as { payload: Uint8Array }).payload;
    const again = encodeCanonical(coreToCbor(core));
    return bytesEqual(again, payload) ? ACCEPTED : { kind: 'break', what: `verified, but the core re-encodes to ${toHex(again)}` };
  },
};
const testeeClient: Target = {
  name: 'testee-client',
  corpus: responses(),
  run(input, r) {
    const op = r.pick(['hello', ...OP_NAMES]);
    const reader = new FrameReader();
    const frames: CborValue[] = [];
    // one frame as the testee would write it: a length the input claims (or its own), then its bytes
    const framed = new Uint8Array(4 + input.length);
    new DataView(framed.buffer).setUint32(0, r.below(8) ? input.length : r.u32(), false);
    framed.set(input, 4);
    for (const c of chunks(framed, r)) frames.push(...reader.push(c));
    if (frames.length === 0) return refused('incomplete');
    const f = frames[0]!;
    const problems = validateResponse(op, 1, f);
    if (problems.length) return refused('schema');
    if (op === 'hello') readHello((f as CborMap).get('ok'));
    const again = encodeFrame(f as CborInput).subarray(4);
    return bytesEqual(again, input) ? ACCEPTED : { kind: 'break', what: `accepted, but the response re-encodes to ${toHex(again)}` };
  },
};

const WIRE_REQUESTS = wireRequests();
const WIRE_CAP = 4096;
const wireServer = createWireServer({ gate: createMemoryWireGate({ steward }), now_s: () => NOW_S, maxMessageBytes: WIRE_CAP });

const wire: Target = {
  name: 'wire',
  corpus: WIRE_REQUESTS,
  async run(input, r) {
    // a stream of one to three frames: the input (its length declared truthfully, or not) between good requests
    const reader = new WireFrameReader(WIRE_CAP);
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, r.below(8) ? input.length : r.below(2) ? WIRE_CAP + 1 : r.u32(), false);
    const stream = [...(r.below(3) ? [] : [frameMessage(r.pick(WIRE_REQUESTS))]), head, input];
    const bodies: Uint8Array[] = [];
    for (const part of stream) for (const c of chunks(part, r)) bodies.push(...reader.push(c.slice()));
    let verdict: Verdict = refused('incomplete');
    for (const body of bodies) {
      const reply = decodeWireReply(await wireServer.handle(body));
      if (reply.kind === 'refusal') {
        if (reply.refusal.message.startsWith(UNTYPED_REFUSAL_PREFIX)) throw new Error(`the endpoint answered an untyped error: ${reply.refusal.message}`);
        verdict = refused(reply.refusal.error);
        continue;
      }
      const again = encodeWireRequest(decodeWireRequest(body, WIRE_CAP));
      if (!bytesEqual(again, body)) return { kind: 'break', what: `answered, but the request re-encodes to ${toHex(again)}` };
      verdict = reply.response.decision.verdict === 'allow' ? ACCEPTED : refused(`deny:${reply.response.decision.deny_reason}`);
    }
    return verdict;
  },
};

const DEV = developmentKey();
const DEV_KID = new TextEncoder().encode(DEV.did);
const CERT_PAYLOAD = encodeCanonical(sampleCertificatePayload(DEV.did) as unknown as CborInput);
const CERT_HEADER = encodeCanonical(new Map<CborInput, CborInput>([[1, -8], [4, DEV_KID]]));

const certificate: Target = {
  name: 'certificate',
  corpus: [signSign1(CERT_PAYLOAD, DEV_KID, DEV.seed, defaultEd25519()), CERT_PAYLOAD, CERT_HEADER],
  run(input, r, asIs) {
    // the re-signed half: the input as the payload under the good header, or as the protected header over the good payload
    const half = asIs ? 3 : r.below(4);
    const bytes =
      half === 0 ? signSign1(input, DEV_KID, DEV.seed, defaultEd25519()) : half === 1 ? signSign1(CERT_PAYLOAD, DEV_KID, DEV.seed, defaultEd25519(), input) : input;
    verifyCertificate(bytes);
    return ACCEPTED;
  },
};

/** Every target, by name. */
export const TARGETS: Readonly<Record<string, Target>> = Object.fromEntries([cbor, grant, receipt, testeeClient, certificate, wire].map((t) => [t.name, t]));
