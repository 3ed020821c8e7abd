// JouleClaw agent identity (jouleclaw §8): a handle bound to an Ed25519 public key, handle = did:key of that key.
import { abytes } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { didFromPublicKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';

/**
 * A conforming AgentIdentity (jouleclaw §8): "(handle, public_key, optional EAT attestation, optional created_at)".
 * The attestation is carried as opaque bytes; this module does not parse EAT (the binding by `cti` is a MAY).
 */
export interface AgentIdentity {
  readonly handle: string;
  readonly public_key: Uint8Array;
  readonly attestation?: Uint8Array;
  readonly created_at?: string;
}

/** The canonical handle of a public key: "did:key:z" || base58btc(0xed 0x01 || raw_public_key_32) (jouleclaw §8). */
export function agentHandle(publicKey: Uint8Array): string {
  return didFromPublicKey(publicKey);
}

/**
 * Returns `identity` when its handle is the did:key of its public key; throws ERR_AGENT_HANDLE_MISMATCH otherwise
 * (ERR_KEY_LENGTH for a key that is not 32 bytes, ERR_BAD_ARGUMENT for a handle that is not text).
 */
export function checkAgentIdentity<T extends AgentIdentity>(identity: T): T {
  if (typeof identity !== 'object' || identity === null) throw new JcpError('ERR_BAD_ARGUMENT', 'an agent identity must be an object');
  if (typeof identity.handle !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'an agent identity handle must be text', { what: 'handle' });
  abytes(identity.public_key, 32, 'agent public key', 'ERR_KEY_LENGTH');
  const expected = agentHandle(identity.public_key);
  // jouleclaw §8: "A verifier MUST confirm that handle == did:key_handle(public_key)"
  if (identity.handle !== expected) {
    throw new JcpError('ERR_AGENT_HANDLE_MISMATCH', `handle ${identity.handle} is not the did:key of its public key (${expected})`, {
      handle: identity.handle,
      expected,
    });
  }
  return identity;
}

/**
 * Accepts signed material from an identity (jouleclaw §8): the handle is checked against the key first ("before
 * accepting any signed material from that identity"), and only then is the signature verified. Returns whether the
 * Ed25519 signature over `message` verifies; a handle that is not the key's did:key throws ERR_AGENT_HANDLE_MISMATCH
 * whatever the signature.
 */
export function verifyAgentSignature(identity: AgentIdentity, message: Uint8Array, signature: Uint8Array, backend: Ed25519 = defaultEd25519()): boolean {
  checkAgentIdentity(identity);
  if (!(message instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'the signed message must be bytes', { what: 'message' });
  abytes(signature, 64, 'Ed25519 signature', 'ERR_SIGNATURE_LENGTH');
  return backend.verify(signature, message, identity.public_key);
}
