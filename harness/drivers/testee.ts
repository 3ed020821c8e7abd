// The testee driver: one long-lived program speaking harness/PROTOCOL.md on stdin/stdout. Every request has a
// timeout; a testee that hangs, dies, exits early, writes garbage or a frame over the cap is killed, the request in
// flight fails with a TesteeFailure naming which, and the next request respawns it and replays the handshake.
// A response belongs to its request (PROTOCOL.md "Messages"): a second frame in the same write as an answer fails the
// request it answers; a frame when none is in flight kills the testee and is reported once, on the next request.
// The testee runs in a process group of its own, and a kill is sent to the whole group: the shell the command runs
// in, the testee and whatever it started go together, so a hung testee leaves no process behind; any group still
// alive when the harness exits is killed then.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { toHex } from '../../impl/bytes.ts';
import { encodeCanonical, type CborInput, type CborMap } from '../../impl/cbor/index.ts';
import { readHello, TesteeFailure, validateResponse, type TesteeInfo, type Transport } from '../implementation.ts';
import { encodeFrame, FrameReader, FramingError, MAX_FRAME_BYTES } from '../protocol/framing.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';

/** Options of {@link testeeTransport}. */
export interface TesteeOptions {
  /** Milliseconds a request may take before the testee is killed (default 10 000). */
  readonly timeoutMs?: number;
  /** Milliseconds a fresh testee may take to start and answer the handshake (default 30 000). */
  readonly startupTimeoutMs?: number;
  /** Largest response frame accepted (default 1 MiB). */
  readonly maxFrameBytes?: number;
  /** Working directory of the testee. */
  readonly cwd?: string;
}

const STDERR_KEEP = 4096;
/** After the testee's own process exits, how long its output may still drain before it is reported as a crash. */
const EXIT_DRAIN_MS = 250;

/** The process groups of testees still running, killed when this process exits. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** SIGKILL to the process group `pid` leads (the testee was spawned detached, so it leads its own). */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* the group is gone already */
  }
  liveGroups.delete(pid);
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const g of [...liveGroups]) killGroup(g);
  });
}

interface Pending {
  readonly op: string;
  readonly seq: number;
  readonly requestHex: string;
  resolve(v: CborMap): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** A transport to the testee started by `command` (run through the shell). */
export function testeeTransport(command: string, opts: TesteeOptions = {}): Transport {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const startupTimeoutMs = Math.max(opts.startupTimeoutMs ?? 30_000, timeoutMs);
  let child: ChildProcessWithoutNullStreams | undefined;
  let stderr = '';
  let seq = 0;
  let pending: Pending | undefined;
  let info: TesteeInfo | undefined;
  let spawns = 0;
  /** The last request answered, for a frame that arrives when none is in flight. */
  let last: { readonly seq: number; readonly op: string } | undefined;
  /** A frame that arrived when no request was in flight: reported once, on the next request. */
  let unasked: { readonly message: string; readonly response: string } | undefined;

  const kill = () => {
    // the whole group, even when the shell itself has exited: what it started may still be running
    if (child?.pid !== undefined) killGroup(child.pid);
    child = undefined;
  };

  const fail = (kind: TesteeFailure['kind'], message: string, responseHex?: string) => {
    const p = pending;
    pending = undefined;
    kill();
    if (p) {
      clearTimeout(p.timer);
      p.reject(
        new TesteeFailure(kind, `${message} (on ${p.op}, seq ${p.seq})`, {
          request: p.requestHex,
          ...(responseHex !== undefined ? { response: responseHex } : {}),
          ...(stderr ? { stderr: stderr.slice(-STDERR_KEEP) } : {}),
        }),
      );
    }
  };

  const start = () => {
    spawns++;
    stderr = '';
    const c = spawn(command, { shell: true, detached: true, stdio: ['pipe', 'pipe', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    const r = new FrameReader(opts.maxFrameBytes ?? MAX_FRAME_BYTES);
    child = c;
    if (c.pid !== undefined) trackGroup(c.pid);
    c.stdout.on('data', (chunk: Buffer) => {
      if (child !== c) return;
      let frames;
      try {
        frames = r.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      } catch (e) {
        const msg = e instanceof FramingError ? e.message : String(e);
        fail('protocol', `the testee wrote ${e instanceof FramingError && e.kind === 'oversize' ? 'a frame over the size cap' : 'bytes that are not a canonical CBOR frame'}: ${msg}`, toHex(chunk.subarray(0, 64)));
        return;
      }
      // every frame of the chunk is read before any answer is delivered: an answer followed by a frame nobody asked
      // for (a duplicate) fails the request it answers, not whichever request comes next
      let answered: { readonly p: Pending; readonly f: CborMap } | undefined;
      for (const f of frames) {
        const p = pending;
        const got = f instanceof Map ? f.get('seq') : undefined;
        const seqText = typeof got === 'bigint' || typeof got === 'number' ? `seq ${got}` : 'no seq';
        if (!p) {
          // PROTOCOL.md "Messages": one request in flight at a time, one response to each
          const frameHex = toHex(encodeCanonical(f as CborInput));
          if (answered) {
            pending = answered.p;
            fail('protocol', `the testee wrote a second frame (${seqText}) after answering seq ${answered.p.seq}`, frameHex);
          } else {
            unasked = { message: `the testee wrote a frame (${seqText}) nobody asked for after ${last ? `seq ${last.seq} (${last.op}) was answered` : 'the handshake was sent'}`, response: frameHex };
            kill();
          }
          return;
        }
        if (got !== BigInt(p.seq) && got !== p.seq) {
          fail('protocol', `the testee wrote a frame for ${seqText} while seq ${p.seq} was in flight`, toHex(encodeCanonical(f as CborInput)));
          return;
        }
        const problems = validateResponse(p.op, p.seq, f);
        if (problems.length) {
          fail('protocol', `the response does not conform to ${PROTOCOL_VERSION}: ${problems.slice(0, 5).join('; ')}`, toHex(encodeCanonical(f as CborInput)));
          return;
        }
        pending = undefined;
        clearTimeout(p.timer);
        last = { seq: p.seq, op: p.op };
        answered = { p, f: f as CborMap };
      }
      if (answered) answered.p.resolve(answered.f);
    });
    c.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    // 'close' (after stdout has drained), not 'exit': a testee may answer and then exit at once; but a process it
    // started may hold stdout open after it exited, so once it has exited its output gets EXIT_DRAIN_MS to arrive
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (child !== c) return;
      fail('crash', `the testee exited (${signal ? `signal ${signal}` : `code ${code}`})`);
    };
    c.on('close', exited);
    c.on('exit', (code, signal) => {
      setTimeout(() => exited(code, signal), EXIT_DRAIN_MS).unref();
    });
    c.on('error', (e) => {
      if (child !== c) return;
      fail('crash', `the testee could not be run: ${e.message}`);
    });
    c.stdin.on('error', () => {
      /* a dead testee's stdin: the exit handler reports it */
    });
  };

  const send = (op: string, args: CborInput, limitMs = timeoutMs): Promise<CborMap> => {
    if (pending) return Promise.reject(new Error('testee driver: one request at a time'));
    if (!child) start();
    const s = ++seq;
    const frame = encodeFrame({ seq: s, op, args });
    return new Promise<CborMap>((resolve, reject) => {
      pending = {
        op,
        seq: s,
        requestHex: toHex(frame.subarray(4)),
        resolve,
        reject,
        timer: setTimeout(() => fail('timeout', `no response within ${limitMs} ms`), limitMs),
      };
      child!.stdin.write(frame);
    });
  };

  const handshake = async (): Promise<TesteeInfo> => {
    const r = await send('hello', { protocol: PROTOCOL_VERSION, suite: 'jcp-conformance' }, startupTimeoutMs);
    if (!r.has('ok')) throw new TesteeFailure('protocol', 'the testee refused the handshake');
    const got = readHello(r.get('ok'));
    if (info && (got.name !== info.name || got.version !== info.version || got.claims.join() !== info.claims.join())) {
      throw new TesteeFailure('protocol', 'the respawned testee describes itself differently from the first');
    }
    return got;
  };

  let handshaken = -1; // the spawn count at the last handshake
  let queue: Promise<unknown> = Promise.resolve();
  const ensure = async () => {
    if (child && handshaken === spawns) return;
    info = await handshake();
    handshaken = spawns;
  };

  return {
    description: `testee: ${command}`,
    hello() {
      // through the same queue as every request: a handshake never overlaps a request still in flight
      const run = queue.then(async () => {
        await ensure();
        return info!;
      });
      queue = run.catch(() => undefined);
      return run;
    },
    request(op, args) {
      // the protocol has one request in flight at a time: callers that overlap (Promise.all) are queued, in order
      const run = queue.then(async () => {
        const u = unasked;
        unasked = undefined;
        // the testee that wrote it was killed then: this request is not sent to it, the next one respawns it
        if (u) throw new TesteeFailure('protocol', `${u.message} (reported on ${op}, which was not sent)`, { response: u.response, ...(stderr ? { stderr: stderr.slice(-STDERR_KEEP) } : {}) });
        await ensure();
        return send(op, args);
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      if (child) {
        child.stdin.end();
        const c = child;
        await new Promise<void>((res) => {
          const t = setTimeout(res, 2000);
          c.on('exit', () => {
            clearTimeout(t);
            res();
          });
        });
        // what it left running (or the testee itself, when it would not end) goes with its group
        if (c.pid !== undefined) killGroup(c.pid);
        child = undefined;
      }
    },
  };
}
