// Caveats as they cross the testee protocol: the grant's own CBOR form, a one-entry map {Variant: parameter}.
import { parseCaveats, type CborValue, type Caveat } from '../../impl/index.ts';

/** Reads a caveat list through the grant's own strict caveat parser (ERR_GRANT_MALFORMED otherwise). */
export function parseCaveatList(v: CborValue): Caveat[] {
  return parseCaveats(v);
}
