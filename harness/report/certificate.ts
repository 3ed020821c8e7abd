// The conformance certificate: the run's summary as canonical CBOR, sealed in a COSE_Sign1 (EdDSA) by the certifying
// key, binding the suite version, the testee's self-description, the digests of the clause index, vector packs and
// expectation file, the primary record's digest and the per-class verdicts. Anyone can check it offline.
import {
  decodeCanonical,
  decodeSign1,
  didPublicKey,
  encodeCanonical,
  isJcpError,
  signSign1,
  stewardKid,
  verifySign1,
  defaultEd25519,
  deriveSeed,
  keyPairFromSeed,
  type CborInput,
  type CborMap,
  type KeyPair,
} from '../oracle.ts';
import type { ClassRow, Footer, Header } from './record.ts';

/** The certificate's payload, as plain values. */
export interface CertificatePayload {
  readonly certificate: 'jcp-conformance-certificate/1';
  readonly suite: string;
  readonly protocol: string;
  readonly testee: { readonly name: string; readonly version: string; readonly driver: string; readonly claims: readonly string[] };
  readonly digests: Readonly<Record<string, string>>;
  readonly vector_packs: ReadonlyArray<{ readonly name: string; readonly digest: string }>;
  readonly record_digest: string;
  readonly seed: number;
  /** Sequences per differential property: with the seed, what re-runs the certification exactly. */
  readonly property_runs?: number;
  /** Per tested or claimed class: its verdict on the spec grade (harness/PROTOCOL.md "Grades"); NOT TESTED for a claimed class no test reached. */
  readonly verdicts: Readonly<Record<string, string>>;
  /** Per tested class: its byte-contract differences (0: as the published vectors); never a spec verdict. */
  readonly byte_contract?: Readonly<Record<string, number>>;
  /** The keys of `verdicts` that name profiles this suite defines (spec-map/profiles.json), not classes of a spec. */
  readonly suite_profiles?: readonly string[];
  readonly counts: Readonly<Record<string, number>>;
  readonly unexpected: number;
  readonly issued_s: number;
  readonly signer: string;
  /** "yes": the run reached its end with every test file loaded (a certificate is only issued for one that did); text, as canonical CBOR has no bools. */
  readonly complete?: 'yes' | 'no';
  /**
   * blake3 root of the run's re-verifiable transcript (hex; harness/transcript/format.ts), when certify ran with
   * --transcript; absent otherwise, so older certificates still verify.
   */
  readonly transcript_root?: string;
}

/** Builds the payload from the record's header, footer and class rows. */
export function certificatePayload(h: Header, f: Footer, rows: readonly ClassRow[], recordDigest: string, signer: string, issued_s: number, transcriptRoot?: string): CertificatePayload {
  return {
    certificate: 'jcp-conformance-certificate/1',
    suite: `${h.suite.name} ${h.suite.version}`,
    protocol: h.protocol,
    testee: { name: h.testee.name, version: h.testee.version, driver: h.testee.driver, claims: [...h.testee.claims] },
    digests: h.digests,
    vector_packs: h.vector_packs,
    record_digest: recordDigest,
    seed: h.seed,
    ...(h.property_runs !== undefined ? { property_runs: h.property_runs } : {}),
    // every class tested, and every claimed class whether tested or not: a claim never goes without its verdict
    verdicts: Object.fromEntries(rows.filter((r) => r.verdict !== 'NOT TESTED' || r.claimed).map((r) => [r.class, r.verdict])),
    byte_contract: Object.fromEntries(rows.filter((r) => r.verdict !== 'NOT TESTED' || r.claimed).map((r) => [r.class, r.contract_differences])),
    ...(rows.some((r) => r.suite_defined && (r.verdict !== 'NOT TESTED' || r.claimed))
      ? { suite_profiles: rows.filter((r) => r.suite_defined && (r.verdict !== 'NOT TESTED' || r.claimed)).map((r) => r.class) }
      : {}),
    counts: f.counts,
    unexpected: f.unexpected,
    issued_s,
    signer,
    complete: f.complete ? 'yes' : 'no',
    ...(transcriptRoot !== undefined ? { transcript_root: transcriptRoot } : {}), // omitted, never null
  };
}

/** The label the development certifying key's seed is derived from: public, so anyone can sign with that key. */
export const DEVELOPMENT_KEY_LABEL = 'jcp-conformance development certifying key';

/** The published development certifying key: signs when no key of one's own is set (JCP_CERT_SEED_HEX); proves nothing of who certified. */
export function developmentKey(): KeyPair {
  return keyPairFromSeed(deriveSeed(DEVELOPMENT_KEY_LABEL));
}

/** Seals a payload with the certifying key. */
export function sealCertificate(p: CertificatePayload, key: KeyPair): Uint8Array {
  return signSign1(encodeCanonical(p as unknown as CborInput), stewardKid(key.did), key.seed, defaultEd25519());
}

/** Why a certificate was refused. */
export class CertificateError extends Error {
  override readonly name = 'CertificateError';
}

function plain(v: unknown): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'bigint') return Number(v);
  return v;
}

type Shape = 'text' | 'int' | 'texts' | 'text-map' | 'int-map' | 'packs' | 'testee' | 'complete';
const isText = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
const SHAPES: Readonly<Record<Shape, (v: unknown) => boolean>> = {
  text: isText,
  int: isInt,
  texts: (v) => Array.isArray(v) && v.every(isText),
  'text-map': (v) => isRecord(v) && Object.values(v).every(isText),
  'int-map': (v) => isRecord(v) && Object.values(v).every(isInt),
  packs: (v) => Array.isArray(v) && v.every((x) => isRecord(x) && isText(x['name']) && isText(x['digest'])),
  testee: (v) => isRecord(v) && isText(v['name']) && isText(v['version']) && isText(v['driver']) && SHAPES.texts(v['claims']),
  complete: (v) => v === 'yes' || v === 'no',
};
/** Every field of the payload with its shape; `?` marks the optional ones. */
const FIELDS: ReadonlyArray<readonly [keyof CertificatePayload, Shape, '?'?]> = [
  ['certificate', 'text'],
  ['suite', 'text'],
  ['protocol', 'text'],
  ['testee', 'testee'],
  ['digests', 'text-map'],
  ['vector_packs', 'packs'],
  ['record_digest', 'text'],
  ['seed', 'int'],
  ['property_runs', 'int', '?'],
  ['verdicts', 'text-map'],
  ['byte_contract', 'int-map', '?'],
  ['suite_profiles', 'texts', '?'],
  ['counts', 'int-map'],
  ['unexpected', 'int'],
  ['issued_s', 'int'],
  ['signer', 'text'],
  ['complete', 'complete', '?'],
  ['transcript_root', 'text', '?'],
];

/** The payload checked field by field: a missing or mistyped field is a refusal naming it, never a later crash. */
function payloadOf(v: unknown): CertificatePayload {
  if (!isRecord(v)) throw new CertificateError('the payload is not a map');
  if (v['certificate'] !== 'jcp-conformance-certificate/1') throw new CertificateError(`unknown certificate format ${JSON.stringify(v['certificate'])}`);
  for (const [name, shape, optional] of FIELDS) {
    if (!(name in v)) {
      if (optional) continue;
      throw new CertificateError(`the payload has no ${name} field`);
    }
    if (!SHAPES[shape](v[name])) throw new CertificateError(`the payload's ${name} field is not ${shape === 'int' ? 'an integer' : `a ${shape}`}`);
  }
  return v as unknown as CertificatePayload;
}

/** COSE header label 2 (RFC 9052 §3.1): labels a recipient must understand; this verifier understands no extension. */
const CRIT = 2;

/**
 * Verifies a certificate's envelope and signature (and, when given, that it was signed by `expectedSigner`). Every
 * malformed input is a CertificateError with one line saying what is wrong: bytes that are not a COSE_Sign1, a kid
 * that is not UTF-8 text naming a did:key, a `crit` header (RFC 9052 §3.1: a header the verifier does not understand
 * is refused), another algorithm, a bad signature, a payload missing a field or holding one of the wrong type.
 */
export function verifyCertificate(bytes: Uint8Array, expectedSigner?: string): CertificatePayload {
  try {
    const s = decodeSign1(bytes);
    if (s.protectedHeader.has(CRIT) || s.unprotected.has(CRIT)) throw new CertificateError('the certificate has a crit header (RFC 9052 §3.1): it asks for header parameters this verifier does not understand');
    const kid = s.protectedHeader.get(4);
    if (!(kid instanceof Uint8Array)) throw new CertificateError('the certificate names no signer (kid)');
    let signer: string;
    try {
      signer = new TextDecoder('utf-8', { fatal: true }).decode(kid);
    } catch {
      throw new CertificateError('the signer (kid) is not UTF-8 text');
    }
    if (expectedSigner !== undefined && signer !== expectedSigner) throw new CertificateError(`signed by ${signer}, expected ${expectedSigner}`);
    if (s.protectedHeader.get(1) !== -8) throw new CertificateError('the certificate is not EdDSA-signed');
    if (!verifySign1(s, didPublicKey(signer), defaultEd25519())) throw new CertificateError(`the signature does not verify under ${signer}`);
    const p = payloadOf(plain(decodeCanonical(s.payload) as CborMap));
    if (p.signer !== signer) throw new CertificateError(`the payload names signer ${p.signer} but the kid is ${signer}`);
    return p;
  } catch (e) {
    if (e instanceof CertificateError) throw e;
    if (isJcpError(e)) throw new CertificateError(`${e.code}: ${e.message}`);
    throw e;
  }
}
