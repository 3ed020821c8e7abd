// Which implementation the conformance tests run against: the in-process reference by default, or the testee named
// by JCP_TESTEE (a command line), with JCP_TESTEE_TIMEOUT_MS per request. One client per test worker.
import { appendFileSync } from 'node:fs';
import { encodeCanonical, toHex, type CborMap } from './oracle.ts';
import { Implementation, type TesteeInfo, type Transport } from './implementation.ts';
import { inProcessTransport } from './drivers/in-process.ts';
import { logLine } from './protocol/refusal-table.ts';
import { testeeTransport } from './drivers/testee.ts';
// jcp §11 wire driver: JCP_ENDPOINT names a live jcp/1 endpoint under test (harness/drivers/wire.ts)
import { wireTransport } from './drivers/wire.ts';
import { transcribing } from './transcript/recorder.ts';

let currentTest = '';
/** Names the running conformance test (clause.ts, per test) for the transcript's entries. */
export function setCurrentTest(id: string): void {
  currentTest = id;
}
/** `t`, writing every exchange to this worker's stream in JCP_TRANSCRIPT's folder when it is set (harness/transcript/format.ts). */
function transcribed(t: Transport, respawns: boolean): Transport {
  const dir = process.env['JCP_TRANSCRIPT'];
  return dir ? transcribing(t, dir, () => currentTest, { restartsOnFailure: respawns }) : t;
}

/** The conformance test now running, as the refusal log names it. */
export interface RunningTest {
  /** Its file, suites and title: one name per test, though titles repeat across describe.each. */
  readonly test: string;
  readonly clauses: readonly string[];
}
let runningTest: RunningTest | undefined;
/** Names the conformance test now running (clause.ts sets it around the test's body, and clears it after). */
export function setRunningTest(t: RunningTest | undefined): void {
  runningTest = t;
}

/** `t`, calling `seen` with every request and its answer before the answer is returned. */
function observed(t: Transport, seen: (op: string, args: Parameters<Transport['request']>[1], answer: CborMap) => void): Transport {
  return {
    description: t.description,
    hello: () => t.hello(),
    close: () => t.close(),
    async request(op, args) {
      const r = await t.request(op, args);
      seen(op, args, r);
      return r;
    },
  };
}

/**
 * JCP_REFUSAL_LOG (scripts/refusal-table.ts): appends a line for every refusal (its ERR_ code) and every deny
 * (`deny:<reason>`) the implementation answers, with the clause ids of the test that provoked it
 * (harness/protocol/refusal-table.ts). Several test workers append to the one file, a line at a time.
 */
function refusalLogging(t: Transport, log: string): Transport {
  return observed(t, (op, _args, r) => {
    const error = r.get('error');
    const ok = r.get('ok');
    const answer =
      error instanceof Map ? String(error.get('code')) : ok instanceof Map && typeof (ok as CborMap).get('deny_reason') === 'string' ? `deny:${String((ok as CborMap).get('deny_reason'))}` : undefined;
    if (answer !== undefined) appendFileSync(log, logLine({ op, answer, test: runningTest?.test ?? '', clauses: runningTest?.clauses ?? [] }));
  });
}

let client: Implementation | undefined;

/** One exchange with the implementation under test, as hex of the canonical request args and response. */
export interface Exchange {
  readonly op: string;
  readonly request: string;
  readonly response: string;
}

const KEEP = 8;
let exchanges: Exchange[] = [];

/** Forgets the exchanges recorded so far (a test starts). */
export function resetTranscript(): void {
  exchanges = [];
}

/** The last exchanges of the running test: evidence for a report when it fails. */
export function transcript(): readonly Exchange[] {
  return exchanges;
}

/** `t`, keeping the running test's last KEEP exchanges. */
function recording(t: Transport): Transport {
  return observed(t, (op, args, r) => {
    exchanges.push({ op, request: toHex(encodeCanonical(args)).slice(0, 4096), response: toHex(encodeCanonical(r)).slice(0, 4096) });
    if (exchanges.length > KEEP) exchanges.shift();
  });
}

/** The implementation under test. */
export function implementation(): Implementation {
  if (!client) {
    const cmd = process.env['JCP_TESTEE'];
    const timeoutMs = process.env['JCP_TESTEE_TIMEOUT_MS'] ? Number(process.env['JCP_TESTEE_TIMEOUT_MS']) : undefined;
    const endpoint = process.env['JCP_ENDPOINT']; // the wire driver: only what the wire can show is tested
    const log = process.env['JCP_REFUSAL_LOG'];
    const t = transcribed(endpoint ? wireTransport(endpoint) : cmd ? testeeTransport(cmd, timeoutMs ? { timeoutMs } : {}) : inProcessTransport(), !endpoint && !!cmd);
    client = new Implementation(recording(log ? refusalLogging(t, log) : t));
  }
  return client;
}

/** The handshake answer of the implementation under test. */
export function testeeInfo(): Promise<TesteeInfo> {
  return implementation().info();
}
