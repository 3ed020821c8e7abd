// A certificate payload with every field filled in and made-up values, for the tests and the fuzzer that take
// certificates apart (harness/self/certificate-malformed.test.ts, harness/fuzz/targets.ts). It certifies nothing.
import type { CertificatePayload } from './certificate.ts';

/** A complete payload naming `signer`. */
export function sampleCertificatePayload(signer: string): CertificatePayload {
  return {
    certificate: 'jcp-conformance-certificate/1',
    suite: 'jcp-conformance 0',
    protocol: 'jcp-testee/1',
    testee: { name: 'made in process', version: '0', driver: 'none', claims: ['jcp:C1'] },
    digests: { 'spec-map/clauses/jcp.json': '00' },
    vector_packs: [{ name: 'v1', digest: '00' }],
    record_digest: '00',
    seed: 1,
    verdicts: { 'jcp:C1': 'PASS' },
    counts: { passed: 1 },
    unexpected: 0,
    issued_s: 1_800_000_000,
    signer,
  };
}
