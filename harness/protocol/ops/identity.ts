// The testee protocol's operations for jcp §2.1 rotation (C12) and §2.2 threshold actors (C13, C18)
// (harness/PROTOCOL.md).
import { type OpSpec, cid, did } from '../shapes.ts';

export const IDENTITY_OPS: Readonly<Record<string, OpSpec>> = {
  'rotation.incept': {
    about: 'jcp §2.1 (C12)',
    args: { map: { identity_seed: 'bytes32', next_public_key: 'bytes32', nonce: 'bytes16' } },
    result: { map: { key_event: 'bytes', event_id: cid } },
  },
  'rotation.rotate': {
    about: 'jcp §2.1 (C12)',
    args: { map: { prior: 'bytes', signer_seed: 'bytes32', next_public_key: 'bytes32', nonce: 'bytes16' } },
    result: { map: { key_event: 'bytes', event_id: cid } },
  },
  'rotation.verify': {
    about: 'jcp §2.1 (C12)',
    args: { map: { log: { array: 'bytes' } } },
    result: { map: { identity: did, current: did, seq: 'uint', next_hash: cid, head: cid } },
  },
  'threshold.dealer': {
    about: 'jcp §2.2 (C13)',
    args: { map: { min: 'uint', max: 'uint', seed: 'bytes32' } },
    result: { map: { group_public_key: 'bytes32', did: did, shares: { array: { map: { identifier: 'uint', signing_share: 'bytes32' } } } } },
  },
  'threshold.dkg': {
    about: 'jcp §2.2 (C18)',
    args: { map: { min: 'uint', max: 'uint', seeds: { array: 'bytes32' } } },
    result: { map: { participants: { array: { map: { identifier: 'uint', signing_share: 'bytes32', group_public_key: 'bytes32' } } } } },
  },
  'threshold.sign': {
    about: 'jcp §2.2 (C13, C18)',
    args: {
      map: {
        min: 'uint',
        max: 'uint',
        group_public_key: 'bytes32',
        signers: { array: { map: { identifier: 'uint', signing_share: 'bytes32' } } },
        message: 'bytes',
        nonce_seed: 'bytes32',
        nonce_randomness: { array: { map: { identifier: 'uint', hiding: 'bytes32', binding: 'bytes32' } } },
      },
      optional: ['nonce_seed', 'nonce_randomness'],
    },
    result: {
      map: {
        signature: 'bytes64',
        shares: { array: { map: { identifier: 'uint', hiding_commitment: 'bytes32', binding_commitment: 'bytes32', sig_share: 'bytes32' } } },
      },
    },
  },
};
