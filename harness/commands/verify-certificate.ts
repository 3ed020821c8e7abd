// `jcp-conformance verify-certificate <certificate> [--signer <did:key>]`: checks a certificate's envelope and
// signature (harness/report/certificate.ts) and prints what it claims, its signer on a line of its own, and a
// warning when that signer is the published development key, whose seed anyone can derive.
import { readFileSync } from 'node:fs';
import { CertificateError, developmentKey, verifyCertificate } from '../report/certificate.ts';
import { unreadable } from './errors.ts';
import { str, type Parsed } from './options.ts';

/** The line printed when a certificate is signed by the development key. */
export const DEVELOPMENT_KEY_WARNING =
  'warning: signed by the published development key, which anyone can sign with: this certificate does not show who certified (certify with JCP_CERT_SEED_HEX set to sign with your own key)';

/** 0 valid, 3 refused (an unreadable file is a CliError: 2). */
export function verifyCertificateCommand(a: Parsed): number {
  const path = a.positionals[0]!;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (e) {
    throw unreadable(path, e);
  }
  try {
    const p = verifyCertificate(bytes, str(a, 'signer'));
    console.log(`valid certificate: ${path}`);
    console.log(`signer: ${p.signer}`);
    if (p.signer === developmentKey().did) console.log(DEVELOPMENT_KEY_WARNING);
    console.log(JSON.stringify(p, null, 2));
    return 0;
  } catch (e) {
    if (e instanceof CertificateError) {
      console.log(`invalid certificate: ${path}: ${e.message}`);
      return 3;
    }
    throw e;
  }
}
