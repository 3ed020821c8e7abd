// Process control of a testee: what the testee protocol (harness/PROTOCOL.md) cannot ask of a testee — a crash, a
// restart — the harness gets by acting on the testee's process (ARCHITECTURE.md: "No test is reference-only").
//
// A ControlledTestee is one process started from a command line, in a process group of its own (so a shell wrapper's
// children are reached too), spoken to with the protocol's framing and schema exactly as harness/drivers/testee.ts
// speaks to it, and SIGKILLed — the whole group — when the harness chooses: before a request reached it, while it is
// deciding, after it answered. Unlike testeeTransport it never respawns on its own: a dead process stays dead, and the
// harness starts the next one.
//
// The second half is the durable-record crash loop of jcp §4.11 built on it (runDurableCrash), graded through the
// protocol only: durable.open / durable.decide over a record path the harness keeps across restarts, and the receipts
// the testee sealed (read with the suite's own receipt reader; the COSE envelope and the core are fixed by jcp §8). The
// record file's own format is the testee's business and is never read.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toHex } from '../../impl/bytes.ts';
import { encodeCanonical, type CborInput, type CborMap } from '../../impl/cbor/index.ts';
import {
  Implementation,
  readHello,
  TesteeError,
  TesteeFailure,
  UnimplementedError,
  validateResponse,
  type DecideFields,
  type DurableDecisionResult,
  type DurablePointHandle,
  type Minted,
  type TesteeInfo,
  type Transport,
} from '../implementation.ts';
import { blake3, contentId, deriveSeed, keyPairFromSeed, verifyReceipt, type KeyPair } from '../oracle.ts';
import { built, COMPILED } from '../build.ts';
import { encodeFrame, FrameReader, FramingError, MAX_FRAME_BYTES } from '../protocol/framing.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STDERR_KEEP = 4096;

// ---- process groups ---------------------------------------------------------------------------------------------

/**
 * The live (not zombie) members of process group `pgid`. On Linux read from /proc; elsewhere only whether the group
 * still has any member (signal 0 to the group), which counts a zombie too.
 */
export function groupMembers(pgid: number): number[] {
  if (process.platform === 'linux') {
    const out: number[] = [];
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      } catch {
        continue; // exited while we looked
      }
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so split after the last ')'
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid && rest[0] !== 'Z' && rest[0] !== 'X') out.push(Number(d));
    }
    return out;
  }
  try {
    process.kill(-pgid, 0);
    return [pgid];
  } catch {
    return [];
  }
}

/** Every group started here and not yet seen empty: killed when this process exits, so no testee outlives a test run. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const g of liveGroups) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---- one controlled testee process ------------------------------------------------------------------------------

/** Options of {@link startTestee}. */
export interface ControlOptions {
  /** Milliseconds a request may take (default 10 000); past it the group is killed and the request fails `timeout`. */
  readonly timeoutMs?: number;
  /** Milliseconds the handshake may take (default 30 000). */
  readonly startupTimeoutMs?: number;
  readonly cwd?: string;
}

/** A testee process the harness controls. */
export interface ControlledTestee {
  /** The process id of the command's shell, which leads the process group (pgid = pid). */
  readonly pid: number;
  /** The protocol over this process only; a request after the process died fails `crash`. */
  readonly transport: Transport;
  /** Resolves once the bytes of the last request were handed to the testee's stdin (at once when none is pending). */
  written(): Promise<void>;
  /**
   * SIGKILLs the whole process group, then waits for the shell to close its pipes (so a response already written is
   * still read and delivered) and for the group to have no live member. Resolves with the members still alive after
   * five seconds ([] normally); a request in flight fails `crash`.
   */
  kill(): Promise<number[]>;
  /** Whether the process is gone (killed by the harness or exited by itself). */
  readonly dead: boolean;
  /** Whether the harness killed it (rather than the testee exiting or crashing by itself). */
  readonly killed: boolean;
  /** The last 4 KiB of the testee's stderr. */
  stderr(): string;
}

interface Pending {
  readonly op: string;
  readonly seq: number;
  resolve(v: CborMap): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Starts `command` (through the shell, as testeeTransport does) in a new process group and begins the handshake at
 * once, so a spare process can warm up while another one runs.
 */
export function startTestee(command: string, opts: ControlOptions = {}): ControlledTestee {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const startupTimeoutMs = Math.max(opts.startupTimeoutMs ?? 30_000, timeoutMs);
  // detached: the shell becomes the leader of a group of its own, so process.kill(-pid) reaches whatever it starts
  const child: ChildProcessWithoutNullStreams = spawn(command, { shell: true, detached: true, stdio: ['pipe', 'pipe', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}) });
  const pid = child.pid;
  if (pid === undefined) throw new TesteeFailure('crash', `the testee could not be started: ${command}`);
  liveGroups.add(pid);
  const reader = new FrameReader(MAX_FRAME_BYTES);
  let stderr = '';
  let seq = 0;
  let pending: Pending | undefined;
  let dead = false;
  let killed = false;
  let lastWrite: Promise<void> = Promise.resolve();
  let queue: Promise<unknown> = Promise.resolve();
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));

  const fail = (e: TesteeFailure) => {
    const p = pending;
    pending = undefined;
    if (p) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(e);
    }
  };
  const evidence = (extra: { request?: string; response?: string } = {}) => ({ ...extra, ...(stderr ? { stderr: stderr.slice(-STDERR_KEEP) } : {}) });
  /** The testee broke the protocol or hung: kill it, fail what was in flight. */
  const breakOff = (kind: TesteeFailure['kind'], message: string, responseHex?: string) => {
    const p = pending;
    void killGroup();
    fail(new TesteeFailure(kind, `${message}${p ? ` (on ${p.op}, seq ${p.seq})` : ''}`, evidence(responseHex !== undefined ? { response: responseHex } : {})));
  };

  child.stdout.on('data', (chunk: Buffer) => {
    let frames;
    try {
      frames = reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    } catch (e) {
      breakOff('protocol', `the testee wrote ${e instanceof FramingError && e.kind === 'oversize' ? 'a frame over the size cap' : 'bytes that are not a canonical CBOR frame'}: ${e instanceof Error ? e.message : String(e)}`, toHex(chunk.subarray(0, 64)));
      return;
    }
    for (const f of frames) {
      const p = pending;
      if (!p) {
        breakOff('protocol', 'the testee wrote a frame nobody asked for');
        return;
      }
      const problems = validateResponse(p.op, p.seq, f);
      if (problems.length) {
        breakOff('protocol', `the response does not conform to ${PROTOCOL_VERSION}: ${problems.slice(0, 5).join('; ')}`, toHex(encodeCanonical(f as CborInput)));
        return;
      }
      pending = undefined;
      if (p.timer) clearTimeout(p.timer);
      p.resolve(f as CborMap);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
  });
  child.stdin.on('error', () => {
    /* the testee is gone; 'close' reports it */
  });
  child.on('error', (e) => {
    dead = true;
    fail(new TesteeFailure('crash', `the testee could not be run: ${e.message}`, evidence()));
  });
  // 'close', not 'exit': stdout has drained, so an answer written just before the kill has been delivered above
  child.on('close', (code, signal) => {
    dead = true;
    fail(new TesteeFailure('crash', killed ? 'the harness killed the testee' : `the testee exited (${signal ? `signal ${signal}` : `code ${code}`})`, evidence()));
  });

  async function killGroup(): Promise<number[]> {
    killed = true;
    try {
      process.kill(-pid!, 'SIGKILL');
    } catch {
      /* the group is already empty */
    }
    await closed;
    for (let waited = 0; waited < 5000; waited += 5) {
      const left = groupMembers(pid!);
      if (left.length === 0) {
        liveGroups.delete(pid!);
        return [];
      }
      await sleep(5);
    }
    return groupMembers(pid!);
  }

  const send = (op: string, args: CborInput, limitMs: number): Promise<CborMap> => {
    if (dead) return Promise.reject(new TesteeFailure('crash', `the testee is not running (on ${op})`, evidence()));
    const s = ++seq;
    const frame = encodeFrame({ seq: s, op, args });
    return new Promise<CborMap>((resolve, reject) => {
      pending = { op, seq: s, resolve, reject, timer: undefined };
      pending.timer = setTimeout(() => breakOff('timeout', `no response within ${limitMs} ms`), limitMs);
      lastWrite = new Promise<void>((done) => child.stdin.write(frame, () => done()));
    });
  };

  // the handshake starts now: a spare process is warm by the time it is used
  const hello: Promise<TesteeInfo> = send('hello', { protocol: PROTOCOL_VERSION, suite: 'jcp-conformance' }, startupTimeoutMs).then((r) => {
    if (!r.has('ok')) throw new TesteeFailure('protocol', 'the testee refused the handshake', evidence());
    return readHello(r.get('ok'));
  });
  hello.catch(() => undefined); // read by the first request; a spare never used must not reject unhandled

  const transport: Transport = {
    description: `controlled testee: ${command}`,
    hello: () => hello,
    request(op, args) {
      // one request in flight at a time (harness/PROTOCOL.md); written() follows the one issued last
      let markWritten!: () => void;
      const issued = new Promise<void>((r) => (markWritten = r));
      lastWrite = issued;
      const run = queue.then(async () => {
        try {
          await hello;
          const p = send(op, args, timeoutMs);
          void lastWrite.then(markWritten);
          return await p;
        } finally {
          markWritten();
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      if (dead) return;
      child.stdin.end();
      const t = setTimeout(() => void killGroup(), 2000);
      await closed;
      clearTimeout(t);
      await killGroup(); // whatever the shell left in its group
    },
  };

  return {
    pid,
    transport,
    written: () => lastWrite,
    kill: killGroup,
    get dead() {
      return dead;
    },
    get killed() {
      return killed;
    },
    stderr: () => stderr,
  };
}

// ---- bundled scripts --------------------------------------------------------------------------------------------

const bundles = new Map<string, Promise<string>>();

/**
 * `entry` (a TypeScript file under the repository root) bundled once per process with esbuild into
 * node_modules/.cache/jcp-durable/<name>.mjs, so each restart is a plain `node` start rather than a TypeScript
 * loader's. Written to a temporary name and renamed, so a test worker never runs another's half-written bundle.
 */
export function bundledScript(entry: string, name: string): Promise<string> {
  let b = bundles.get(name);
  if (!b) {
    b = (async () => {
      const { build } = await import('esbuild');
      const out = path.join(ROOT, 'node_modules', '.cache', 'jcp-durable', `${name}.mjs`);
      const r = await build({ entryPoints: [path.resolve(ROOT, entry)], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, outfile: out, logLevel: 'warning' });
      fs.mkdirSync(path.dirname(out), { recursive: true });
      const tmp = `${out}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, r.outputFiles[0]!.contents);
      fs.renameSync(tmp, out);
      return out;
    })();
    bundles.set(name, b);
  }
  return b;
}

/** A POSIX shell word for `s`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command line of the reference testee (harness/adapter/testee-main.ts) as a separate `node` process. */
export async function referenceTesteeCommand(): Promise<string> {
  // compiled (the installed package), the reference testee is plain JavaScript already
  const script = COMPILED ? path.join(ROOT, built('harness/adapter/testee-main.ts')) : await bundledScript('harness/adapter/testee-main.ts', 'reference-testee');
  return `${shellQuote(process.execPath)} ${shellQuote(script)}`;
}

// ---- the durable crash loop (jcp §4.11) -------------------------------------------------------------------------

/** mulberry32: a seeded PRNG, so every run kills at the same points of the request stream. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const utf8 = new TextEncoder();
const key = (label: string): KeyPair => keyPairFromSeed(deriveSeed(label));
const ALICE = key('alice');
const BOB = key('bob');
const CAROL = key('carol');
/** The steward every durable point of the crash loop seals with. */
export const CRASH_STEWARD = key('steward');
const TOOL = contentId({ resource: 'tool:search' });
const ROOT_BUDGET_UJ = 3_000n;
const CHILD_BUDGET_UJ = 1_200n;

/** Options of {@link runDurableCrash}. */
export interface CrashOptions {
  /** The testee's command line (run through the shell). */
  readonly command: string;
  /** A directory for the records (one per record the loop uses). */
  readonly dir: string;
  /** SIGKILLs of a testee that had opened its record, at least (each followed by a restart that is checked). */
  readonly kills: number;
  readonly seed: number;
  /** Kills per record before the loop audits it and moves to a fresh one, so each restart's replay stays short (default 8). */
  readonly killsPerRecord?: number;
  readonly control?: ControlOptions;
}

/** A restart whose decisions no record consistent with what the testee had answered can produce. */
export interface CrashFinding {
  /**
   * `lost`: the testee decided against less spend than every acknowledged allow (and the in-flight decisions at most
   * once each) leaves; `excess`: against more; `mismatch`: neither (another verdict, reason or remaining budget).
   */
  readonly kind: 'lost' | 'excess' | 'mismatch';
  readonly record: number;
  /** The process lifetime on that record (0 = the first open), i.e. the restarts before this decision. */
  readonly lifetime: number;
  readonly detail: string;
}

/** What a crash run saw. */
export interface CrashResult {
  /** Kills of a testee that had opened its record. */
  kills: number;
  /** Kills while durable.open was in flight (mid-claim, mid-replay); not counted in `kills`. */
  killsDuringOpen: number;
  /** Kills while a durable.decide was in flight (its answer may or may not have come back first). */
  killsInFlight: number;
  /** Of those, the ones whose answer came back after all (written before the kill landed). */
  inFlightAnswered: number;
  /** Kills after the last answer arrived. */
  killsAfterAnswer: number;
  /** Decisions whose answer arrived. */
  acknowledged: number;
  /** Of those, allowed. */
  allowed: number;
  /** Of those, denied budget-exceeded: a ceiling was reached, so the budget checks are not vacuous. */
  budgetDenials: number;
  /** Denied `unrecorded` (nothing debited). */
  unrecorded: number;
  /** Records used and audited. */
  records: number;
  /** In-flight decisions whose fate (recorded and debited, or not) a later answer settled either way. */
  inFlightSettled: { recorded: number; notRecorded: number };
  findings: CrashFinding[];
  /** Grants whose acknowledged allows together exceed the budget (each: where and by how much). */
  overspends: string[];
  /** Process groups still alive after a kill (pids). */
  leftBehind: number[];
  /** Every process group started (pgids), for a caller's own leftover check. */
  groups: number[];
}

interface Grants {
  readonly root: Minted;
  readonly child: Minted;
  readonly budget: ReadonlyMap<string, bigint>;
}

interface Req {
  readonly n: number;
  readonly ids: readonly string[];
  readonly leaf: string;
  readonly cost: bigint;
  readonly payload_hash: string;
  readonly fields: DecideFields;
}

/** One state the record may be in: the spend per grant, and which in-flight decisions it assumes recorded. */
interface Candidate {
  readonly spend: ReadonlyMap<string, bigint>;
  /** One letter per ambiguous in-flight decision: r (recorded, debited) or n (not recorded). */
  readonly fate: string;
}

interface Rec {
  readonly index: number;
  readonly file: string;
  grants?: Grants;
  next: number;
  kills: number;
  lifetime: number;
  candidates: Candidate[];
  spoiled: boolean;
  /** Acknowledged allowed spend per grant (receipts only, independent of the model). */
  readonly acked: Map<string, bigint>;
}

const spendKey = (c: Candidate) => [...c.spend].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}:${v}`).join(',');

function dedupe(cs: readonly Candidate[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of cs) {
    const k = `${spendKey(c)}|${c.fate}`;
    if (!seen.has(k)) seen.set(k, c);
  }
  return [...seen.values()];
}

/** The verdict a record in state `c` owes request `q` (jcp §7: prior spend + cost > budget_uj → budget-exceeded, on every link). */
function owed(c: Candidate, q: Req, budget: ReadonlyMap<string, bigint>): { verdict: 'allow' | 'deny'; remaining: bigint } {
  const fits = q.ids.every((id) => (c.spend.get(id) ?? 0n) + q.cost <= budget.get(id)!);
  const leafSpent = (c.spend.get(q.leaf) ?? 0n) + (fits ? q.cost : 0n);
  return { verdict: fits ? 'allow' : 'deny', remaining: budget.get(q.leaf)! - leafSpent };
}

function debited(c: Candidate, q: Req, fate = ''): Candidate {
  const spend = new Map(c.spend);
  for (const id of q.ids) spend.set(id, (spend.get(id) ?? 0n) + q.cost);
  return { spend, fate: c.fate + fate };
}

/**
 * Runs the crash loop: a stream of durable.decide requests (single grants and two-link chains, both reaching their
 * ceilings) against records the harness keeps, the testee's whole process group SIGKILLed at a point chosen by a seeded
 * PRNG — while durable.open is in flight, while a decision is in flight (before the request reached the testee, or
 * while it decides), or after an answer — and respawned on the same record, `kills` times. Every answer is checked,
 * as it arrives, against the states the record may be in: every acknowledged allow debited, each decision that was in
 * flight at a kill debited once or not at all, nothing else. A record is audited before the loop moves on (requests of
 * exactly the largest remaining budget + 1, and of exactly the smallest remaining budget).
 *
 * Throws what the protocol says (UnimplementedError when durable.open is unimplemented, TesteeError, TesteeFailure
 * when the testee fails as a program by itself), so a conformance test grades it as clause.ts does.
 */
export async function runDurableCrash(opts: CrashOptions): Promise<CrashResult> {
  const perRecord = opts.killsPerRecord ?? 8;
  const rand = prng(opts.seed);
  const r: CrashResult = {
    kills: 0,
    killsDuringOpen: 0,
    killsInFlight: 0,
    inFlightAnswered: 0,
    killsAfterAnswer: 0,
    acknowledged: 0,
    allowed: 0,
    budgetDenials: 0,
    unrecorded: 0,
    records: 0,
    inFlightSettled: { recorded: 0, notRecorded: 0 },
    findings: [],
    overspends: [],
    leftBehind: [],
    groups: [],
  };
  const start = (): ControlledTestee => {
    const t = startTestee(opts.command, opts.control);
    r.groups.push(t.pid);
    return t;
  };
  const kill = async (t: ControlledTestee) => {
    r.leftBehind.push(...(await t.kill()));
  };
  const newRecord = (index: number): Rec => ({
    index,
    file: path.join(opts.dir, `crash-${opts.seed}-${index}.rec`),
    next: 0,
    kills: 0,
    lifetime: 0,
    candidates: [{ spend: new Map(), fate: '' }],
    spoiled: false,
    acked: new Map(),
  });

  /** The next request of the record's stream: even n on the root grant (bob), odd n through the chain (carol). */
  const request = (rec: Rec, over: { cost?: bigint; chained?: boolean } = {}): Req => {
    const g = rec.grants!;
    const n = rec.next++;
    const chained = over.chained ?? n % 2 === 1;
    const payload_hash = contentId({ payload: `durable-crash:${opts.seed}:${rec.index}:${n}` });
    const leaf = chained ? g.child.grant_id : g.root.grant_id;
    const cost = over.cost ?? BigInt(10 + ((n * 7919 + rec.index * 31) % 391));
    return {
      n,
      ids: chained ? [g.root.grant_id, g.child.grant_id] : [g.root.grant_id],
      leaf,
      cost,
      payload_hash,
      fields: {
        frame: { kind: 'tool-call', trust: 'control', grant_id: leaf, action: 'call', resource: TOOL, payload_hash },
        chain: chained ? [g.root.signed_grant, g.child.signed_grant] : [g.root.signed_grant],
        caller: chained ? CAROL.did : BOB.did,
        cost: { uj: cost, provenance: 'Estimator' },
        now_s: 1n,
      },
    };
  };

  /** The model's step for an answer that arrived: prune the states it rules out, or record a finding. */
  const observe = (rec: Rec, q: Req, a: DurableDecisionResult): void => {
    if (a.verdict === 'deny' && a.deny_reason === 'unrecorded' && a.receipt === undefined) {
      r.unrecorded++; // jcp §11 "A request it cannot record is denied unrecorded": nothing decided, nothing debited
      return;
    }
    if (a.receipt === undefined) throw new Error(`durable.decide #${q.n} answered ${a.verdict} without a receipt (jcp §8: every decision seals a receipt)`);
    // the testee's receipt, read with the suite's own reader: the envelope and the core are fixed by jcp §8
    const core = verifyReceipt(a.receipt, { steward: CRASH_STEWARD.did }).core;
    const agree = core.verdict === a.verdict && core.deny_reason === a.deny_reason && core.cost_uj === q.cost && core.grant_id === q.leaf && core.payload_hash === q.payload_hash;
    if (!agree) throw new Error(`durable.decide #${q.n}: the receipt (${core.verdict} ${core.deny_reason ?? ''}, ${core.cost_uj} µJ on ${core.grant_id.slice(0, 8)}) is not of the decision answered (${a.verdict} ${a.deny_reason ?? ''}, ${q.cost} µJ on ${q.leaf.slice(0, 8)})`);
    r.acknowledged++;
    const budget = rec.grants!.budget;
    if (a.verdict === 'allow') {
      r.allowed++;
      for (const id of q.ids) {
        const s = (rec.acked.get(id) ?? 0n) + q.cost;
        rec.acked.set(id, s);
        // no budget spent past its ceiling under any prefix of what was acknowledged
        if (s > budget.get(id)!) r.overspends.push(`record ${rec.index}, lifetime ${rec.lifetime}: grant ${id.slice(0, 8)}… has ${s} µJ of acknowledged allows, over its ${budget.get(id)} µJ budget (request #${q.n})`);
      }
    } else if (a.deny_reason === 'budget-exceeded') r.budgetDenials++;
    if (rec.spoiled) return;
    const survivors: Candidate[] = [];
    for (const c of rec.candidates) {
      const o = owed(c, q, budget);
      if (o.verdict !== a.verdict) continue;
      if (a.verdict === 'allow' ? o.remaining === core.budget_remaining_uj : a.deny_reason === 'budget-exceeded') survivors.push(a.verdict === 'allow' ? debited(c, q) : c);
    }
    if (survivors.length > 0) {
      const before = new Set(rec.candidates.map((c) => c.fate));
      rec.candidates = dedupe(survivors);
      // an in-flight decision is settled once every surviving state agrees on its letter
      const fates = new Set(rec.candidates.map((c) => c.fate));
      if (before.size > 1 && fates.size === 1) {
        const [f] = fates;
        for (const ch of f!) ch === 'r' ? r.inFlightSettled.recorded++ : r.inFlightSettled.notRecorded++;
        rec.candidates = rec.candidates.map((c) => ({ spend: c.spend, fate: '' }));
      }
      return;
    }
    r.findings.push({ kind: classify(rec, q, a, core.budget_remaining_uj), record: rec.index, lifetime: rec.lifetime, detail: explain(rec, q, a, core.budget_remaining_uj) });
    rec.spoiled = true; // the states are unknown from here: the loop audits nothing more of this record and moves on
  };

  const classify = (rec: Rec, q: Req, a: DurableDecisionResult, remaining: bigint): CrashFinding['kind'] => {
    const budget = rec.grants!.budget;
    if (a.verdict === 'deny') {
      // denied budget-exceeded where every state allows: the testee holds more spend on some link than the record can
      return a.deny_reason === 'budget-exceeded' ? 'excess' : 'mismatch';
    }
    // allowed: the leaf's spend before it, as the testee's receipt states it
    const spentBefore = budget.get(q.leaf)! - remaining - q.cost;
    let lower = 0;
    let higher = 0;
    for (const c of rec.candidates) {
      const o = owed(c, q, budget);
      const leaf = c.spend.get(q.leaf) ?? 0n;
      if (o.verdict === 'deny' || leaf > spentBefore) lower++;
      else if (leaf < spentBefore) higher++;
    }
    if (lower === rec.candidates.length) return 'lost';
    if (higher === rec.candidates.length) return 'excess';
    return 'mismatch';
  };

  const explain = (rec: Rec, q: Req, a: DurableDecisionResult, remaining: bigint): string => {
    const states = rec.candidates.slice(0, 4).map((c) => q.ids.map((id) => `${id.slice(0, 8)}… spent ${c.spend.get(id) ?? 0n}`).join(', '));
    return (
      `record ${rec.index}, after ${rec.lifetime} restart(s): request #${q.n} (${q.cost} µJ on ${q.ids.length === 1 ? 'a single grant' : 'a two-link chain'}) was answered ` +
      `${a.verdict}${a.deny_reason ? ` ${a.deny_reason}` : ''}${a.verdict === 'allow' ? ` with ${remaining} µJ left of ${rec.grants!.budget.get(q.leaf)}` : ''}; ` +
      `what the testee had answered before leaves the record in ${rec.candidates.length === 1 ? 'one state' : `one of ${rec.candidates.length} states`}: ${states.join(' | ')}`
    );
  };

  /** durable.open on the record; a claim the dead holder's process still held when it died is given a moment to go. */
  const open = async (impl: Implementation, rec: Rec, holder: string): Promise<DurablePointHandle> => {
    for (let i = 0; ; i++) {
      try {
        return await impl.openDurable(rec.file, holder, CRASH_STEWARD.seed);
      } catch (e) {
        if (!(e instanceof TesteeError && e.code === 'ERR_RECORD_LOCKED') || i >= 40) {
          if (e instanceof TesteeError && e.code === 'ERR_RECORD_LOCKED') {
            throw new Error(`durable.open of ${rec.file} is refused ERR_RECORD_LOCKED after its holder's whole process group was SIGKILLed and gone for 2 s: a restart cannot reopen the record (${e.message})`);
          }
          throw e;
        }
        await sleep(50);
      }
    }
  };

  const mint = async (impl: Implementation, rec: Rec): Promise<Grants> => {
    const nonce = (label: string) => blake3(utf8.encode(`nonce:durable-crash:${opts.seed}:${rec.index}:${label}`)).slice(0, 16);
    const root = await impl.mintGrant(ALICE.seed, { subject: BOB.did, resource: TOOL, actions: ['call'], budget_uj: ROOT_BUDGET_UJ, nonce: nonce('root') });
    const child = await impl.attenuate(root.signed_grant, BOB.seed, { subject: CAROL.did, budget_uj: CHILD_BUDGET_UJ, nonce: nonce('child') });
    return { root, child, budget: new Map([[root.grant_id, ROOT_BUDGET_UJ], [child.grant_id, CHILD_BUDGET_UJ]]) };
  };

  /**
   * The record's audit, on a single grant and then a chain: a request of the largest remaining budget any state leaves
   * + 1 µJ (denied by every state: an allow means spend was lost), then one of exactly the smallest (allowed by every
   * state whose other links leave room: a deny means spend was invented).
   */
  const audit = async (rec: Rec, dp: DurablePointHandle) => {
    for (const chained of [false, true]) {
      for (const pick of ['over', 'exact'] as const) {
        if (rec.spoiled) return;
        const g = rec.grants!;
        const leaf = chained ? g.child.grant_id : g.root.grant_id;
        const spends = rec.candidates.map((c) => c.spend.get(leaf) ?? 0n);
        const least = spends.reduce((x, y) => (x < y ? x : y));
        const most = spends.reduce((x, y) => (x > y ? x : y));
        const cost = pick === 'over' ? g.budget.get(leaf)! - least + 1n : g.budget.get(leaf)! - most;
        if (cost <= 0n) continue;
        const q = request(rec, { cost, chained });
        observe(rec, q, await dp.decide(q.fields));
      }
    }
  };

  let spare = start();
  let live: ControlledTestee | undefined;
  let rec = newRecord(0);
  try {
    while (r.kills < opts.kills) {
      const proc = live ?? spare;
      if (!live) spare = start(); // the next process warms up (node, modules, handshake) while this one runs
      live = proc;
      const impl = new Implementation(proc.transport);
      rec.grants ??= await mint(impl, rec);
      const holder = `holder-${rec.index}-${rec.lifetime}`;
      // one lifetime in ten is killed during durable.open: mid-claim, mid-replay
      if (rec.lifetime > 0 && rand() < 0.1) {
        const opening = impl.openDurable(rec.file, holder, CRASH_STEWARD.seed).then(
          () => undefined,
          (e: unknown) => e,
        );
        await proc.written();
        await sleep(Math.floor(rand() * 8));
        await kill(proc);
        live = undefined;
        const e = await opening;
        if (e !== undefined && !(e instanceof TesteeFailure && proc.killed)) throw e;
        r.killsDuringOpen++;
        continue;
      }
      const dp = await open(impl, rec, holder);
      const last = rec.kills >= perRecord;
      // a few decisions answered in full; the first after a restart is decided against the re-established spend
      const t = last ? 2 : Math.floor(rand() * 4);
      for (let i = 0; i < t; i++) {
        const q = request(rec);
        observe(rec, q, await dp.decide(q.fields));
      }
      if (last || rec.spoiled) {
        // the record's restarts are all checked: audit it, release it, and go on with a fresh one in this process
        if (!rec.spoiled) await audit(rec, dp);
        await dp.close();
        r.records++;
        rec = newRecord(rec.index + 1);
        continue;
      }
      const q = request(rec);
      if (rand() < 0.5) {
        // killed while the decision is in flight: before the request reached the testee, once it was written, or a
        // few milliseconds on (deciding, recording, or answered with the answer still in the pipe)
        r.killsInFlight++;
        const deciding = dp.decide(q.fields).then(
          (a) => ({ a }),
          (e: unknown) => ({ e }),
        );
        const when = rand();
        if (when >= 1 / 3) await proc.written();
        if (when >= 2 / 3) await sleep(Math.floor(rand() * 4));
        await kill(proc);
        const got = await deciding;
        if ('a' in got) {
          r.inFlightAnswered++;
          observe(rec, q, got.a);
        } else {
          if (!(got.e instanceof TesteeFailure && proc.killed)) throw got.e;
          // jcp §4.11: recorded (and so debited, and staying debited) or never recorded — the answer cannot say which
          if (!rec.spoiled) {
            const budget = rec.grants!.budget;
            const next: Candidate[] = [];
            for (const c of rec.candidates) {
              if (owed(c, q, budget).verdict === 'allow') next.push(debited(c, q, 'r'), { spend: c.spend, fate: `${c.fate}n` });
              else next.push(c);
            }
            rec.candidates = dedupe(next);
            if (rec.candidates.length > 512) rec.spoiled = true; // never settled: audit nothing more of it (not a finding)
          }
        }
      } else {
        r.killsAfterAnswer++;
        observe(rec, q, await dp.decide(q.fields));
        if (rand() < 0.5) await sleep(Math.floor(rand() * 3));
        await kill(proc);
      }
      live = undefined;
      r.kills++;
      rec.kills++;
      rec.lifetime++;
    }
    // the last kill is followed by a restart too: audit the record it left
    if (rec.lifetime > 0) {
      const proc = live ?? spare;
      if (!live) spare = start();
      live = proc;
      const dp = await open(new Implementation(proc.transport), rec, `holder-${rec.index}-${rec.lifetime}`);
      const q = request(rec);
      observe(rec, q, await dp.decide(q.fields));
      if (!rec.spoiled) await audit(rec, dp);
      await dp.close();
      r.records++;
    }
  } finally {
    if (live) await kill(live);
    await kill(spare);
  }
  return r;
}

/** Problems a crash run shows, per property; each conformance test asserts the list for its clauses is empty. */
export const CRASH_CHECKS = {
  /**
   * jcp §4.11 "MUST record every allowed decision durably" and "Its energy MUST stay debited": no allow the testee
   * answered is missing from the spend a restart decides against. Through the protocol no outcome of an allowed
   * decision's action is ever reported to the testee (durable.* has no such operation), so every allowed decision it
   * recorded is, at the next restart, one with no recorded outcome — §4.11's in-flight state.
   */
  acknowledged: {
    clauses: ['jcp/4.11#record-allowed-durably', 'jcp/4.11#in-flight-stays-debited'],
    problems: (r: CrashResult): string[] => [...r.findings.filter((f) => f.kind === 'lost').map((f) => `lost: ${f.detail}`), ...r.overspends.map((o) => `overspent: ${o}`), ...vacuity(r)],
  },
  /**
   * jcp §4.11 "on restart MUST re-establish the spend from that record before deciding anything new": every restart's
   * decisions, its first included, see exactly a spend the record can hold — every acknowledged allow, each decision in
   * flight at a kill once or not at all, nothing debited twice.
   */
  reestablished: {
    clauses: ['jcp/4.11#re-establish-before-deciding'],
    problems: (r: CrashResult): string[] => [...r.findings.map((f) => `${f.kind}: ${f.detail}`), ...r.overspends.map((o) => `overspent: ${o}`), ...vacuity(r)],
  },
} as const;

/** A run too thin to decide anything fails rather than passes. */
function vacuity(r: CrashResult): string[] {
  const out: string[] = [];
  if (r.killsInFlight === 0) out.push('no kill landed while a decision was in flight');
  if (r.killsAfterAnswer === 0) out.push('no kill landed after an answer');
  if (r.allowed === 0) out.push('the testee allowed nothing: the crash run decides nothing');
  if (r.budgetDenials === 0 && r.findings.length === 0) out.push('no ceiling was reached: the budget checks were vacuous');
  if (r.leftBehind.length > 0) out.push(`processes left behind after a kill of their group: ${r.leftBehind.join(', ')}`);
  return out;
}

// re-exported for the tests that drive the loop
export { TesteeFailure, UnimplementedError };
