// jcp §8: "Every decision — allow and deny — seals as a JCR-1 receipt: canonical det-CBOR inside a COSE_Sign1 envelope".
import { SIGN1_TAIL_ROOM, protectedHeaderBytes, sigPrefixRoom, signSign1InPlace } from '../cose/sign1.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { ReceiptCoreV2 } from './core.ts';
import { writeReceiptCoreAt } from './encode-core.ts';

const utf8 = new TextEncoder();
const headerCache = new Map<string, Uint8Array>();

/** The COSE kid of a steward: the UTF-8 bytes of its did:key (a byte shape the suite fixes; jcp §8 "steward = … the COSE kid"). */
export function stewardKid(did: string): Uint8Array {
  return utf8.encode(did);
}

function headerFor(did: string): Uint8Array {
  let h = headerCache.get(did);
  if (!h) {
    h = protectedHeaderBytes(stewardKid(did));
    if (headerCache.size >= 1024) headerCache.clear();
    headerCache.set(did, h);
  }
  return h;
}

/**
 * Seals a jcp/2 core as a tagged COSE_Sign1 signed by `steward`. Refuses any other profile (jcp §8: "Implementations
 * MUST NOT mint jcp/1") and a core whose steward is not the signing key.
 */
export function sealReceipt(core: ReceiptCoreV2, steward: KeyPair, backend: Ed25519 = defaultEd25519()): Uint8Array {
  // jcp §8: "Implementations MUST NOT mint jcp/1."
  if (core.jcp_receipt !== 'jcp/2') {
    throw new JcpError('ERR_BAD_ARGUMENT', `this implementation mints only jcp/2 receipts, not ${String(core.jcp_receipt)}`);
  }
  // jcp §8: "A conforming implementation MUST include it." (payload_hash)
  if (typeof core.payload_hash !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a jcp/2 core must carry payload_hash');
  // jcp §8: "steward = the signer's id (the COSE kid)"
  if (core.steward !== steward.did) {
    throw new JcpError('ERR_BAD_ARGUMENT', `the core names steward ${core.steward} but is signed by ${steward.did}`);
  }
  // the core is written into a scratch buffer after room for the Sig_structure's prefix and before room for the
  // signature, signed there in place, the envelope laid out around it there, and copied out once
  const prot = headerFor(steward.did);
  const w = writeReceiptCoreAt(core, sigPrefixRoom(prot), SIGN1_TAIL_ROOM);
  return signSign1InPlace(w.bytes, w.at, w.end, prot, steward.seed, backend, w.limit);
}
