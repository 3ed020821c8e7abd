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
  /** Sequences per differential property (issue 9): with the seed, what re-runs the certification exactly. */
  readonly property_runs?: number;
  /** Per tested class: its verdict on the spec grade (harness/PROTOCOL.md "Grades"). */
  readonly verdicts: Readonly<Record<string, string>>;
  /** Per tested class: its byte-contract differences (0: as the published vectors); never a spec verdict. */
  readonly byte_contract?: Readonly<Record<string, number>>;
  readonly counts: Readonly<Record<string, number>>;
  readonly unexpected: number;
  readonly issued_s: number;
  readonly signer: string;
  /** "yes": the run reached its end with every test file loaded (a certificate is only issued for one that did); text, as canonical CBOR has no bools. */
  readonly complete?: 'yes' | 'no';
  // ---- re-verifiable transcripts (issue 9 item 5, harness/transcript/format.ts) ----
  /** blake3 root of the run's transcript (hex), when certify ran with --transcript; absent otherwise, so older certificates still verify. */
  readonly transcript_root?: string;
  // ---- end transcripts ----
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
    verdicts: Object.fromEntries(rows.filter((r) => r.verdict !== 'NOT TESTED').map((r) => [r.class, r.verdict])),
    byte_contract: Object.fromEntries(rows.filter((r) => r.verdict !== 'NOT TESTED').map((r) => [r.class, r.contract_differences])),
    counts: f.counts,
    unexpected: f.unexpected,
    issued_s,
    signer,
    complete: f.complete ? 'yes' : 'no',
    ...(transcriptRoot !== undefined ? { transcript_root: transcriptRoot } : {}), // transcripts (issue 9 item 5): omitted, never null
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

/** Verifies a certificate's envelope and signature (and, when given, that it was signed by `expectedSigner`). */
export function verifyCertificate(bytes: Uint8Array, expectedSigner?: string): CertificatePayload {
  try {
    const s = decodeSign1(bytes);
    const kid = s.protectedHeader.get(4);
    if (!(kid instanceof Uint8Array)) throw new CertificateError('the certificate names no signer (kid)');
    const signer = new TextDecoder('utf-8', { fatal: true }).decode(kid);
    if (expectedSigner !== undefined && signer !== expectedSigner) throw new CertificateError(`signed by ${signer}, expected ${expectedSigner}`);
    if (s.protectedHeader.get(1) !== -8) throw new CertificateError('the certificate is not EdDSA-signed');
    if (!verifySign1(s, didPublicKey(signer), defaultEd25519())) throw new CertificateError(`the signature does not verify under ${signer}`);
    const p = plain(decodeCanonical(s.payload) as CborMap) as CertificatePayload;
    if (p.certificate !== 'jcp-conformance-certificate/1') throw new CertificateError(`unknown certificate format ${String(p.certificate)}`);
    if (p.signer !== signer) throw new CertificateError(`the payload names signer ${p.signer} but the kid is ${signer}`);
    return p;
  } catch (e) {
    if (e instanceof CertificateError) throw e;
    if (isJcpError(e)) throw new CertificateError(`${e.code}: ${e.message}`);
    throw e;
  }
}
