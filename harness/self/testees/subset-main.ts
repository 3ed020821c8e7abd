// A testee that implements exactly the classes named by its first argument (a comma list, `jcp:` implied) and answers
// `unimplemented` to every operation none of them requires (harness/protocol/claims.ts): the reference behind the
// testee protocol, with its claims and its operations cut down, as an implementation of part of the spec would be.
// harness/self/claims.test.ts certifies it: it must PASS exactly the classes it claims.
import { createReferenceAdapter, Unimplemented } from '../../adapter/reference.ts';
import { serve } from '../../adapter/serve.ts';
import type { Adapter } from '../../adapter/respond.ts';
import { classesRequiring } from '../../protocol/claims.ts';
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';

const claims = (process.argv[2] ?? '').split(',').filter(Boolean).map((c) => (c.includes(':') ? c : `jcp:${c}`));
// operations answered `unimplemented` although a claimed class requires them (an over-claiming testee)
const withheld = new Set((process.argv[3] ?? '').split(',').filter(Boolean));
if (claims.length === 0) {
  process.stderr.write('subset-main: name the classes to implement, e.g. C1,C2,C3\n');
  process.exit(2);
}

const reference = createReferenceAdapter();
const adapter: Adapter = {
  handle(op: string, args: CborMap): CborInput {
    if (op === 'hello') {
      const hello = reference.handle(op, args) as Record<string, CborInput>;
      return { ...hello, name: 'jcp-subset', claims };
    }
    if (withheld.has(op) || !classesRequiring(op).some((k) => claims.includes(k))) throw new Unimplemented(`${op}: this implementation implements only ${claims.join(', ')}`);
    return reference.handle(op, args);
  },
};

serve(adapter, process.stdin, process.stdout).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`subset testee: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
