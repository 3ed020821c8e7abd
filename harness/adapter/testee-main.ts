// The reference implementation as a testee process: `node <this file, compiled or bundled>` (or `tsx` on it) speaks
// harness/PROTOCOL.md on stdin/stdout. The suite runs it exactly as it runs any other implementation's adapter.
import { serveReference } from './stdio.ts';

serveReference().then((code) => process.exit(code));
