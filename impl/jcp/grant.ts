// jcp §4: a grant is identified by blake3(canonical_cbor(grant)) and signed by its issuer (Ed25519 over the canonical bytes).
import { bytesEqual, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { didPublicKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { grantToCbor, parseGrant } from './codec.ts';
import { contentIdOfBytes } from './content-id.ts';
import type { Caveat, ContentId, Did, Funds, Grant, SignedGrant } from './types.ts';

// Grants are immutable values: mint and parse return frozen objects, and their byte fields (nonce) must not be
// changed in place, since the canonical bytes and id are memoised per grant object.
const bytesCache = new WeakMap<Grant, Uint8Array>();
const idCache = new WeakMap<Grant, ContentId>();

/** The canonical det-CBOR bytes of a grant (what its issuer signs). Memoised per grant object. */
export function grantBytes(g: Grant): Uint8Array {
  let b = bytesCache.get(g);
  if (!b) {
    b = encodeCanonical(grantToCbor(g));
    bytesCache.set(g, b);
  }
  return b;
}

/** jcp §4: the grant's content id, blake3 of its canonical bytes, lowercase hex. Memoised per grant object. */
export function grantId(g: Grant): ContentId {
  let id = idCache.get(g);
  if (!id) {
    id = contentIdOfBytes(grantBytes(g));
    idCache.set(g, id);
  }
  return id;
}

const verified = new Map<string, boolean>();
const verifiedObjects = new WeakMap<SignedGrant, { readonly sig: Uint8Array; readonly ok: boolean }>();
/**
 * jcp §4: does the grant's signature verify under its issuer's key? Memoised on (grant id, signature): the id binds
 * every signed byte, the issuer included, so the verdict for that pair can never change.
 */
export function verifyGrantSignature(sg: SignedGrant, backend: Ed25519 = defaultEd25519()): boolean {
  if (!(sg.signature instanceof Uint8Array) || sg.signature.length !== 64) return false;
  // Fast path per object; the signature bytes are compared again so a signature changed in place is never trusted.
  const o = verifiedObjects.get(sg);
  if (o !== undefined && bytesEqual(o.sig, sg.signature)) return o.ok;
  const key = grantId(sg.grant) + toHex(sg.signature);
  const hit = verified.get(key);
  if (hit !== undefined) return hit;
  let ok: boolean;
  try {
    ok = backend.verify(sg.signature, grantBytes(sg.grant), didPublicKey(sg.grant.issuer));
  } catch {
    ok = false;
  }
  if (verified.size >= 65536) verified.delete(verified.keys().next().value as string);
  verified.set(key, ok);
  verifiedObjects.set(sg, { sig: sg.signature.slice(), ok });
  return ok;
}

/**
 * Signs a grant with its issuer's key, after validating it exactly as the wire would (so nothing signed here is
 * refused by a parser). Throws ERR_BAD_ARGUMENT when the key is not the grant's issuer, ERR_GRANT_MALFORMED otherwise.
 */
export function signGrant(g: Grant, issuer: KeyPair, backend: Ed25519 = defaultEd25519()): SignedGrant {
  if (issuer.did !== g.issuer) {
    throw new JcpError('ERR_BAD_ARGUMENT', `the signing key ${issuer.did} is not the grant's issuer ${g.issuer}`);
  }
  const valid = validateGrant(g);
  return Object.freeze({ grant: valid, signature: backend.sign(issuer.seed, grantBytes(valid)) });
}

/** What a caller chooses when minting a root grant; nonce and clock are inputs (ARCHITECTURE.md: determinism). */
export interface RootGrantFields {
  readonly subject: Did;
  readonly resource: ContentId;
  readonly actions: readonly string[];
  readonly budget_uj: bigint;
  /** Unix seconds; 0 or absent = no expiry. */
  readonly expiry?: bigint;
  readonly budget_funds?: Funds;
  readonly caveats?: readonly Caveat[];
  readonly delegate_depth?: bigint;
  /** 16 bytes. */
  readonly nonce: Uint8Array;
}

/**
 * Validates a grant built in memory exactly as one read from the wire: encode, strict-decode, strict-parse.
 * Throws ERR_GRANT_MALFORMED (or a CBOR error for an unencodable value) naming what is wrong.
 */
export function validateGrant(g: Grant): Grant {
  const parsed = parseGrant(decodeCanonical(encodeCanonical(grantToCbor(g))));
  return parsed;
}

/** Mints and signs a root grant (no parent) issued by `issuer`. */
export function mintGrant(issuer: KeyPair, f: RootGrantFields, backend: Ed25519 = defaultEd25519()): SignedGrant {
  // signGrant validates
  const g: Grant = {
    issuer: issuer.did,
    subject: f.subject,
    capability: { resource: f.resource, actions: [...f.actions] },
    budget_uj: f.budget_uj,
    expiry: f.expiry ?? 0n,
    nonce: f.nonce,
    ...(f.budget_funds !== undefined ? { budget_funds: f.budget_funds } : {}),
    ...(f.caveats !== undefined && f.caveats.length > 0 ? { caveats: f.caveats } : {}),
    ...(f.delegate_depth !== undefined ? { delegate_depth: f.delegate_depth } : {}),
  };
  return signGrant(g, issuer, backend);
}

