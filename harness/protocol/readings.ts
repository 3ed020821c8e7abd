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
  'wrong-length-verify': {
    clause: 'jcp/2#open-wrong-length-key-or-signature',
    readings: {
      refused: 'ed25519.verify refuses a key that is not 32 bytes or a signature that is not 64 (ERR_KEY_LENGTH, ERR_SIGNATURE_LENGTH)',
      invalid: 'ed25519.verify answers invalid for a key or signature of the wrong length (RFC 8032 §5.1.7: a decoding failure)',
    },
    reference: 'refused',
  },
  'canonical-tags': {
    clause: 'jcp/3#open-tags-in-canonical-check',
    readings: {
      refused: 'a canonical check refuses every tag (ERR_CBOR_TAG), tag 18 included',
      'passed-through': 'a tag is data: kept when its head and its content are canonical',
    },
    reference: 'refused',
  },
  'map-key-types': {
    clause: 'jcp/3#open-map-key-types',
    readings: {
      'any-type': 'map keys of any type (integers, text, byte strings, arrays, maps) are kept, ordered over their encodings',
      'int-and-text': 'only integer and text map keys are kept; a key of another type is refused',
      'text-only': 'only text map keys are kept; a key of another type is refused',
    },
    reference: 'any-type',
  },
  'unknown-caveat': {
    clause: 'jcp/4.9#open-unknown-caveat-at-mint',
    readings: {
      refused: 'a caveat outside the variants is refused at mint, and a signed grant carrying one does not parse (ERR_GRANT_MALFORMED)',
      'carried-fail-closed': 'a grant carrying one is minted and verifies, and no decision over it is allowed',
    },
    reference: 'refused',
  },
  'unknown-frame-fields': {
    clause: 'jcp/6#open-unknown-frame-fields',
    readings: {
      refused: 'a frame carrying a field outside jcp §6 is refused (ERR_FRAME_MALFORMED)',
      ignored: 'a frame carrying a field outside jcp §6 is read as its known fields, the unknown one ignored',
    },
    reference: 'refused',
  },
  'empty-trust-roots': {
    clause: 'jcp/7#open-empty-trust-roots',
    readings: {
      'configured-none-anchors': 'a resource whose trust-root list is set empty is configured, and no root anchors it: every grant is denied untrusted-root',
      'unconfigured-open': 'an empty trust-root list is no configuration: the resource stays open',
    },
    reference: 'configured-none-anchors',
  },
  'receipt-size-cap': {
    clause: 'jcp/8#open-receipt-size-cap',
    readings: {
      'cap-64kib': 'receipt.verify refuses a receipt over 65,536 bytes (ERR_COSE_TOO_LARGE), however well-formed',
      uncapped: 'receipt.verify verifies a well-formed receipt of any size',
    },
    reference: 'cap-64kib',
  },
};

/** The defined `features` values of the handshake. */
export const FEATURES: Readonly<Record<string, string>> = {
  'byte-contract':
    'the testee claims the suite\'s byte contract (harness/PROTOCOL.md "Grades"): its grants, receipts and content ids are laid out as the published vectors lay them out and its refusals carry the suite\'s ERR_ codes, so a difference there is an unexpected result rather than a note',
};
