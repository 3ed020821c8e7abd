// The readings a testee may declare in its handshake (`readings` in hello, harness/PROTOCOL.md "Declared readings"),
// one per open point of the spec map (level OPEN: the spec's text permits more than one reading), and the defined
// `features`. A test that depends on an open point is graded against the reading the testee declared; where none is
// declared, an answer the text permits reads "acceptable", never "failed".

/** One open point: its clause in the spec map, the readings the text permits, and the one the reference takes. */
export interface OpenPoint {
  readonly clause: string;
  /** Each permitted reading's name, with what it means. */
  readonly readings: Readonly<Record<string, string>>;
  readonly reference: string;
}

/** Every open point a testee may declare a reading of, by the name used in `readings`. */
export const OPEN_POINTS: Readonly<Record<string, OpenPoint>> = {
  'expiry-boundary': {
    clause: 'jcp/7#open-expiry-boundary',
    readings: {
      'expired-at-expiry': 'a grant is expired once now_s >= expiry (fails closed, as JWT exp)',
      'valid-at-expiry': 'a grant is expired only once now_s > expiry',
    },
    reference: 'expired-at-expiry',
  },
  'key-order': {
    clause: 'jcp/3#open-key-order',
    readings: {
      'length-first': 'RFC 7049 canonical order: shorter encoded key first, then bytewise',
      bytewise: 'RFC 8949 §4.2.1 order: bytewise over the encoded keys',
    },
    reference: 'length-first',
  },
  'ed25519-verification': {
    clause: 'jcp/2#open-ed25519-verification-rule',
    readings: {
      'rfc8032-strict': 'RFC 8032 §5.1.7: canonical A and R, S < L, the cofactorless equation',
      cofactored: 'RFC 8032 §5.1.7 with the cofactored equation [8][S]B = [8]R + [8][k]A',
      zip215: 'ZIP-215: non-canonical A and R accepted, the cofactored equation',
    },
    reference: 'rfc8032-strict',
  },
};

/** The defined `features` values of the handshake. */
export const FEATURES: Readonly<Record<string, string>> = {
  'byte-contract':
    'the testee claims the suite\'s byte contract (harness/PROTOCOL.md "Grades"): its grants, receipts and content ids are laid out as the published vectors lay them out and its refusals carry the suite\'s ERR_ codes, so a difference there is an unexpected result rather than a note',
};
