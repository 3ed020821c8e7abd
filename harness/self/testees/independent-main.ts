// The independent implementation's adapter (./independent.ts builds it with its impl/ choices patched in): the
// reference adapter with its own error taxonomy — coarser codes, each still one of the suite's closed list, as an
// implementation mapping its own errors onto that list would choose them — no claim of the byte contract, its own
// canonical check (cbor.check, ./independent-cbor.ts: tags passed through as data), and the readings it takes of the
// expiry boundary and of tags in a canonical check declared in its handshake.
import { createReferenceAdapter } from '../../adapter/reference.ts';
import { serve } from '../../adapter/serve.ts';
import type { Adapter } from '../../adapter/respond.ts';
import { isJcpError, JcpError, type JcpErrorCode } from '../../../impl/errors.ts';
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import { LEGACY_VARIANTS } from '../../../mutation/testees/registry.ts';
import { legacyVariant } from '../../../mutation/testees/legacy.ts';
import { checkCanonical } from './independent-cbor.ts';

/** Its own taxonomy: one code per family where the suite distinguishes several. */
export function ownCode(code: JcpErrorCode): JcpErrorCode {
  if (code.startsWith('ERR_CBOR_')) return 'ERR_BAD_ARGUMENT';
  if (code === 'ERR_NOT_HOLDER' || code === 'ERR_DELEGATION_FORBIDDEN' || code === 'ERR_CHAIN_BROKEN') return 'ERR_ATTENUATION_VIOLATION';
  if (code.startsWith('ERR_KEY_EVENT_')) return 'ERR_KEY_EVENT_MALFORMED';
  if (code.startsWith('ERR_STATEMENT_')) return 'ERR_STATEMENT_MALFORMED';
  if (code.startsWith('ERR_COSE_') || code.startsWith('ERR_RECEIPT_')) return 'ERR_RECEIPT_MALFORMED';
  if (code.startsWith('ERR_AMENDMENT_')) return 'ERR_AMENDMENT_MALFORMED';
  if (code.startsWith('ERR_CHECKPOINT_')) return 'ERR_CHECKPOINT_MALFORMED';
  return code;
}

// a rule breaker of mutation/testees/ rebuilt on this implementation, when its name is the first argument
const fault = process.argv[2];
if (fault !== undefined && !(LEGACY_VARIANTS as readonly string[]).includes(fault)) {
  process.stderr.write(`independent testee: unknown fault ${fault} (one of ${LEGACY_VARIANTS.join(', ')})\n`);
  process.exit(2);
}
// the implementation: the reference's operations but cbor.check, which is its own; a rule breaker wraps all of it
// (accept-non-canonical replacing that check with a lenient one)
const base = createReferenceAdapter();
const own: Adapter = {
  handle(op: string, args: CborMap): CborInput {
    if (op === 'cbor.check') return { canonical: checkCanonical(args.get('bytes') as Uint8Array) };
    return base.handle(op, args);
  },
};
const reference = fault ? legacyVariant(own, fault) : own;
const adapter: Adapter = {
  handle(op: string, args: CborMap): CborInput {
    if (op === 'hello') {
      const hello = reference.handle(op, args) as Record<string, CborInput>;
      return { ...hello, name: 'jcp-independent', features: [], readings: { 'expiry-boundary': 'valid-at-expiry', 'canonical-tags': 'passed-through' } };
    }
    try {
      return reference.handle(op, args);
    } catch (e) {
      if (isJcpError(e)) throw new JcpError(ownCode(e.code), e.message);
      throw e;
    }
  },
};

serve(adapter, process.stdin, process.stdout).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`independent testee: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
