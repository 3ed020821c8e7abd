// The reference implementation as a testee process on this process's stdin and stdout (harness/PROTOCOL.md): what
// `jcp-conformance reference-testee` and harness/adapter/testee-main.ts run. Nothing but answer frames goes to stdout.
import { createReferenceAdapter } from './reference.ts';
import { serve } from './serve.ts';

/** Serves the reference until stdin ends (exit 0); a malformed stream ends it with its reason on stderr (exit 3). */
export async function serveReference(): Promise<number> {
  try {
    await serve(createReferenceAdapter(), process.stdin, process.stdout);
    return 0;
  } catch (e) {
    process.stderr.write(`jcp reference testee: ${e instanceof Error ? e.message : String(e)}\n`);
    return 3;
  }
}
