// The reference implementation as a testee process: `tsx harness/adapter/testee-main.ts` speaks harness/PROTOCOL.md
// on stdin/stdout. The suite runs it exactly as it runs any other implementation's adapter.
import { createReferenceAdapter } from './reference.ts';
import { serve } from './serve.ts';

serve(createReferenceAdapter(), process.stdin, process.stdout).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`jcp reference testee: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
