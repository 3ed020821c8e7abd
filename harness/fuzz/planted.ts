// Targets with a planted fault, for the fuzz runner's own self-test (harness/self/fuzz.test.ts): each makes one kind of
// finding on a known share of its inputs, so the test can hold the runner to seeing it. Loaded only when
// JCP_FUZZ_PLANTED=1.
import { JcpError } from '../../impl/errors.ts';
import type { Target } from './targets.ts';

const CORPUS = [Uint8Array.of(1, 2, 3, 4), Uint8Array.of(0xa1, 0x61, 0x61, 0x01)];

/** Every planted target, by name. */
export const PLANTED: Readonly<Record<string, Target>> = {
  // a TypeError on every input whose first byte is 0x00; a typed refusal on the rest
  'planted-throw': {
    name: 'planted-throw',
    corpus: CORPUS,
    run(input) {
      if (input[0] === 0x00) throw new TypeError('planted: the first byte is zero');
      throw new JcpError('ERR_BAD_ARGUMENT', 'planted: refused');
    },
  },
  // never returns on about one input in a thousand (its block hangs); accepts the rest
  'planted-hang': {
    name: 'planted-hang',
    corpus: CORPUS,
    run(_input, r) {
      if (r.below(1000) === 0) for (;;);
      return { kind: 'accepted' };
    },
  },
  // a break on inputs longer than 6 bytes, an accept otherwise
  'planted-break': {
    name: 'planted-break',
    corpus: CORPUS,
    run(input) {
      return input.length > 6 ? { kind: 'break', what: 'planted: accepted, but re-encodes otherwise' } : { kind: 'accepted' };
    },
  },
};
