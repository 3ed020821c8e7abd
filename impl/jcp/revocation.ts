// jcp §4.3 revocation: signed by revoked_by over its canonical bytes; honoured only after its authority is verified.
import { encodeCanonical } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { revocationToCbor } from './codec.ts';
import { didPublicKey } from '../identity/did-key.ts';
import { isContentId } from './content-id.ts';
import { grantId } from './grant.ts';
import type { ContentId, Grant, Revocation, SignedRevocation } from './types.ts';

/** The canonical bytes a revocation's signer signs. */
export function revocationBytes(r: Revocation): Uint8Array {
  return encodeCanonical(revocationToCbor(r));
}

/** Signs a revocation of `grant_id` by `revoker`; the nonce is an input. */
export function mintRevocation(revoker: KeyPair, grant_id: ContentId, nonce: Uint8Array, backend: Ed25519 = defaultEd25519()): SignedRevocation {
  // the rules parseSignedRevocation applies on the wire, so nothing signed here is refused there
  if (!isContentId(grant_id)) throw new JcpError('ERR_REVOCATION_MALFORMED', 'grant_id must be a content id (64 lowercase hex digits)');
  if (!(nonce instanceof Uint8Array) || nonce.length !== 16) throw new JcpError('ERR_REVOCATION_MALFORMED', 'nonce must be 16 bytes');
  const revocation = Object.freeze({ grant_id, revoked_by: revoker.did, nonce });
  return Object.freeze({ revocation, signature: backend.sign(revoker.seed, revocationBytes(revocation)) });
}

/**
 * jcp §4.3: "MUST verify authority before honoring one — the ids match, the revoker is the grant's issuer, the
 * signature verifies". Throws ERR_REVOCATION_UNAUTHORIZED with detail.fault 'grant-id' | 'not-issuer' | 'signature'.
 */
export function verifyRevocationAuthority(sr: SignedRevocation, grant: Grant, backend: Ed25519 = defaultEd25519()): void {
  const r = sr.revocation;
  const id = grantId(grant);
  if (r.grant_id !== id) {
    throw new JcpError('ERR_REVOCATION_UNAUTHORIZED', `the revocation names grant ${r.grant_id}, not ${id}`, { fault: 'grant-id' });
  }
  // jcp §4.3: "revoked_by: did:key ; MUST equal that grant's issuer"
  if (r.revoked_by !== grant.issuer) {
    throw new JcpError('ERR_REVOCATION_UNAUTHORIZED', `${r.revoked_by} is not the grant's issuer ${grant.issuer}`, { fault: 'not-issuer' });
  }
  let ok = false;
  try {
    ok = backend.verify(sr.signature, revocationBytes(r), didPublicKey(r.revoked_by));
  } catch {
    ok = false;
  }
  if (!ok) throw new JcpError('ERR_REVOCATION_UNAUTHORIZED', "the revocation's signature does not verify", { fault: 'signature' });
}
