// Which implementation the conformance tests run against: the in-process reference by default, or the testee named
// by JCP_TESTEE (a command line), with JCP_TESTEE_TIMEOUT_MS per request. One client per test worker.
import { appendFileSync } from 'node:fs';
import { onTestFailed, TestRunner } from 'vitest';
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

/** One exchange with the implementation under test, as hex of the canonical request args and response, whole. */
export interface Exchange {
  readonly op: string;
  readonly request: string;
  readonly response: string;
}

/** An exchange as kept while the test runs: its bytes, made hex only when a report needs them. */
interface Kept {
  readonly op: string;
  readonly request: Uint8Array;
  readonly response: Uint8Array;
}

/**
 * The most exchanges one test keeps: the first half and the last half of them, past that the middle is left out and
 * counted. Above what a plain conformance test exchanges; a differential property's runs and their shrinking exchange
 * more (14,216 seen in one failing run, a 63 MB line in the record at 20,000), and for those the shrunk case file holds
 * the smallest failing sequence whole. It bounds a runaway test's memory and its line in the record.
 */
export const TRANSCRIPT_LIMIT = 2_000;
const HEAD = TRANSCRIPT_LIMIT / 2;

let head: Kept[] = [];
/** The last exchanges once `head` is full: a ring of HEAD slots, `next` the slot the next exchange takes. */
let tail: Kept[] = [];
let next = 0;
let total = 0;
/** The test whose failure hook is registered: one hook per test, whatever the resets. */
let hooked: object | undefined;

/**
 * Forgets the exchanges recorded so far (a test starts). Inside a test, a failure of that test writes its whole
 * transcript to the test's meta as `exchanges` (a {@link TestExchanges}), which the record's reporter turns into the
 * test line's transcript (harness/report/record-reporter.ts).
 */
export function resetTranscript(): void {
  head = [];
  tail = [];
  next = 0;
  total = 0;
  const test = TestRunner.getCurrentTest();
  if (test && hooked !== test) {
    hooked = test;
    onTestFailed(({ task }) => {
      (task.meta as Record<string, unknown>)['exchanges'] = testExchanges();
    });
  }
}

/** The running test's exchanges so far, in order (the middle left out past TRANSCRIPT_LIMIT). */
export function transcript(): readonly Exchange[] {
  return [...head, ...tail.slice(next), ...tail.slice(0, next)].map((x) => ({ op: x.op, request: toHex(x.request), response: toHex(x.response) }));
}

/** How many exchanges the running test had beyond those {@link transcript} keeps. */
export function exchangesLeftOut(): number {
  return total - head.length - tail.length;
}

/** A test's exchanges as its meta carries them to the reporter: hex, in order, and how many were left out after `head`. */
export interface TestExchanges {
  readonly exchanges: readonly Exchange[];
  readonly left_out?: { readonly count: number; readonly after: number };
}

function testExchanges(): TestExchanges {
  const left = exchangesLeftOut();
  return {
    exchanges: transcript(),
    ...(left > 0 ? { left_out: { count: left, after: head.length } } : {}),
  };
}

/** `t`, keeping every exchange of the running test (up to TRANSCRIPT_LIMIT). */
function recording(t: Transport): Transport {
  return observed(t, (op, args, r) => {
    const x: Kept = { op, request: encodeCanonical(args), response: encodeCanonical(r) };
    total++;
    if (head.length < HEAD) head.push(x);
    else if (tail.length < HEAD) tail.push(x);
    else {
      tail[next] = x;
      next = (next + 1) % HEAD;
    }
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

/**
 * Closes the client and forgets it, so the next {@link implementation} builds a new one from the environment as it is
 * then: for a runner that serves several implementations in one worker, one per test file (the kill matrix,
 * mutation/vitest.matrix.config.ts).
 */
export async function resetImplementation(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.transport.close();
}

/** The handshake answer of the implementation under test. */
export function testeeInfo(): Promise<TesteeInfo> {
  return implementation().info();
}
