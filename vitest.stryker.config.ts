import { defineConfig } from 'vitest/config';
import { ShortestFirstSequencer } from './scripts/weighted-sequencer.ts';
import base from './vitest.config.ts';

// Mutation runs test the reference implementation: the harness's own self-tests (which start nested test runs and
// testee processes) are left out, since they exercise the harness rather than the code being mutated. So is the wire
// endpoint's abuse test, a load test with latency and memory bounds: under Stryker's instrumented code (a switch at
// every mutant) it misses those bounds, and what it checks is timing, not values a mutant would change. So is the
// durable record's SIGKILL test (impl/durable/crash.test.ts): its decisions run in child processes (a bundled child),
// where Stryker switches no mutant on (in process it only reads back the records the killed child left), and at about
// 50 s a run it made each mutant it covered cost most of a minute.
// The suite project keeps its one module graph per worker (vitest.config.ts): Stryker switches mutants at run time, so
// a mutant run only re-runs the tests that cover it in modules already loaded, about 1 s a mutant against 4.3 s with a
// graph per file; static mutants (run while modules load) are not run at all (stryker.config.json `ignoreStatic`).
// The tests run in worker threads, as Stryker's runner asks (a mutant about 0.8 s, against 1.4 s in child processes).
// The durable record's close-then-reopen tests once failed there with ERR_RECORD_LOCKED: a child forked by another
// thread held the closed record's descriptor until its exec; a claim found held is now tried again for a moment
// (impl/durable/lock.ts CLAIM_SETTLE_MS).
// So is impl/durable/lock.test.ts: its test that a record reopens while another thread forks holds the claim's retry
// (impl/durable/lock.ts CLAIM_SETTLE_MS, 200 ms) against each fork's copy of the descriptor, and in Stryker's runner,
// a process of several GiB of instrumented code beside another run, a fork outlasts it (1 of 400 reopens refused, in
// each of two dry runs); lock.ts's own mutants are tested by lock-edges.test.ts, which scripts the claim.
// So are the tests of harness/conformance/durable.test.ts that SIGKILL and restart testee processes: those processes
// run the reference with no mutant switched on (Stryker switches them in its own process), as they would under a kill-
// matrix mutant, and at about 18 s they were the largest share of each mutant of the CBOR core that survived; JCP_STRYKER
// tells that file so, and its tests in one process still run.
// A mutant run goes through its covering files one at a time and stops at the first failure, so they run the shortest
// first (scripts/weighted-sequencer.ts ShortestFirstSequencer), not npm test's longest first.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    sequence: { ...base.test?.sequence, sequencer: ShortestFirstSequencer },
    env: { ...base.test?.env, JCP_STRYKER: '1' },
    exclude: ['harness/self/**', 'node_modules/**', 'impl/wire/abuse.test.ts', 'impl/durable/crash.test.ts', 'impl/durable/lock.test.ts'],
  },
});
