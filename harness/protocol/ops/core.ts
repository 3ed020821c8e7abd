// The testee protocol's operations for jcp §2–§8: identities and signatures, canonical CBOR, grants, revocations,
// frames, enforcement points and the decision (harness/PROTOCOL.md).
import { type OpSpec, cid, did, VERDICT, VALIDITY, GRANT_FIELDS, CHILD_FIELDS, MINTED, GRANT_VIEW, FRAME, DECIDE_ARGS } from '../shapes.ts';

export const CORE_OPS: Readonly<Record<string, OpSpec>> = {
  hello: {
    about: 'handshake',
    args: { map: { protocol: 'text', suite: 'text' } },
    result: {
      map: { name: 'text', version: 'text', protocol: 'text', language: 'text', claims: { array: 'text' }, features: { array: 'text' }, readings: { textMap: 'text' } },
      optional: ['language', 'features', 'readings'],
    },
  },
  'identity.from-seed': { about: 'jcp §2', args: { map: { seed: 'bytes32' } }, result: { map: { public_key: 'bytes32', did: did } } },
  'identity.parse-did': { about: 'jcp §2', args: { map: { did: 'text' } }, result: { map: { public_key: 'bytes32' } } },
  'ed25519.sign': { about: 'jcp §2', args: { map: { seed: 'bytes32', message: 'bytes' } }, result: { map: { signature: 'bytes64' } } },
  'ed25519.verify': {
    about: 'jcp §2',
    args: { map: { public_key: 'bytes', message: 'bytes', signature: 'bytes' } },
    result: { map: { verdict: VALIDITY } },
  },
  'cbor.check': { about: 'jcp §3, §11', args: { map: { bytes: 'bytes' } }, result: { map: { canonical: 'bytes' } } },
  'grant.mint': { about: 'jcp §4', args: { map: { issuer_seed: 'bytes32', grant: GRANT_FIELDS } }, result: MINTED },
  'grant.attenuate': {
    about: 'jcp §4.1, §4.4',
    args: { map: { parent: 'bytes', holder_seed: 'bytes32', child: CHILD_FIELDS } },
    result: MINTED,
  },
  'grant.shard': {
    about: 'jcp §4.5',
    args: { map: { parent: 'bytes', holder_seed: 'bytes32', slices: { array: { map: { subject: did, budget_uj: 'uint', nonce: 'bytes16' } }, min: 1 } } },
    result: { map: { grants: { array: MINTED } } },
  },
  'grant.verify': {
    about: 'jcp §4: the signature verdict, the content id, and (optional) the grant read back in the neutral form',
    args: { map: { signed_grant: 'bytes' } },
    result: { map: { verdict: VALIDITY, grant_id: cid, grant: GRANT_VIEW }, optional: ['grant'] },
  },
  'grant.forge': {
    about: 'harness tooling: sign exactly the fields given, in the testee\'s own layout, with no check of authority or narrowing (hostile objects: an amplifying child, a stranger\'s grant, a broken signature)',
    args: { map: { signer_seed: 'bytes32', grant: GRANT_VIEW, tamper: { enum: ['signature'] } }, optional: ['tamper'] },
    result: MINTED,
  },
  'revocation.mint': {
    about: 'jcp §4.3',
    args: { map: { revoker_seed: 'bytes32', grant_id: cid, nonce: 'bytes16' } },
    result: { map: { signed_revocation: 'bytes' } },
  },
  'frame.check': { about: 'jcp §6', args: { map: { frame: 'bytes' } }, result: { map: { frame: FRAME } } },
  'point.new': {
    about: 'jcp §7',
    args: { map: { steward_seed: 'bytes32', trust_roots: { textMap: { array: did } } }, optional: ['trust_roots'] },
    result: { map: { point: 'text' } },
  },
  'point.trust-roots': { about: 'jcp §7 C15', args: { map: { point: 'text', resource: cid, roots: { array: did } } }, result: { map: {} } },
  'point.revoke': { about: 'jcp §4.3', args: { map: { point: 'text', revocation: 'bytes', grant: 'bytes' } }, result: { map: {} } },
  'point.decide': {
    about: 'jcp §7, §8 (optional cost_funds §4.8 C22, label §4.10 C25)',
    args: DECIDE_ARGS,
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes' }, optional: ['deny_reason'] },
  },
};
