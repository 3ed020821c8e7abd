// Re-verifiable transcripts: every recorded request replayed, stream by stream, against a FRESH
// in-process reference (harness/drivers/in-process.ts: the reference adapter behind canonical CBOR and the protocol
// schema), and each recorded answer compared with the reference's:
// - ok with ok: byte for byte (canonical CBOR), after the opaque handles below are mapped;
// - a refusal with a refusal: by code only (messages are free, harness/PROTOCOL.md);
// - unimplemented with unimplemented; anything else, and every failure of the testee as a program, differs.
// Handles the implementation chose (point, ticket, channel, relay, forwarder names: the result fields of
// harness/protocol/schema.ts that later requests name back) differ between implementations without meaning anything:
// the testee's handle is mapped to the reference's as each appears, and substituted in later requests. A ticket is
// scoped by its point (the reference numbers tickets per point). durable.open's `path` names a file the test made in
// a folder it has since removed: each recorded folder is replayed in a fresh temporary folder. What a test did outside
// the exchanges (a file another process wrote, a lock it took, the jcp/1 traffic on a socket) is not in the transcript
// and cannot be replayed: endpoint.start and endpoint.restart answer with a live endpoint of each side's own (its
// address, its steward), so their ok answers agree by form alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { toHex } from '../../impl/bytes.ts';
import { encodeCanonical, MAX_MAX_DEPTH, type CborInput, type CborMap, type CborValue } from '../../impl/cbor/index.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { TesteeFailure } from '../implementation.ts';
import type { Entry, ReadStream } from './format.ts';

/** Result fields that are handles the implementation chose, by op, and the argument name later requests use. */
export const HANDLE_RESULTS: Readonly<Record<string, readonly string[]>> = {
  'point.new': ['point'],
  'durable.open': ['point'],
  'point.authorize': ['ticket'],
  'channel.open': ['channel'],
  'continuation.relay': ['relay'],
  'forward.new': ['forwarder'],
};
const HANDLE_ARGS = ['point', 'ticket', 'channel', 'relay', 'forwarder'] as const;
/** Operations whose ok answer describes a live endpoint of the answering side's own: compared by form alone. */
const LIVE_ENDPOINT_OPS = new Set(['endpoint.start', 'endpoint.restart']);

/** How one recorded exchange compared with the reference's answer. */
export interface Comparison {
  readonly stream: string;
  readonly index: number;
  readonly entry: Entry;
  readonly agree: boolean;
  /** What differed, in words (absent when they agree). */
  readonly difference?: string;
  /** The recorded answer's form: ok | error | unimplemented | failure. */
  readonly form: 'ok' | 'error' | 'unimplemented' | 'failure';
  /** The failure kind, for a testee that failed as a program. */
  readonly failure?: string;
}

const CODEC = { maxDepth: MAX_MAX_DEPTH } as const;
const enc = (v: CborValue): string => toHex(encodeCanonical(v as CborInput, CODEC));

function formOf(r: CborMap): Comparison['form'] {
  if (r.has('failure')) return 'failure';
  if (r.has('ok')) return 'ok';
  if (r.has('error')) return 'error';
  return 'unimplemented';
}

const codeIn = (r: CborMap): string => String((r.get('error') as CborMap | undefined)?.get('code'));

/** A short rendering of a value for a report line. */
export function brief(v: CborValue | undefined, max = 80): string {
  let s: string;
  if (v === undefined) s = '(absent)';
  else if (v instanceof Uint8Array) s = `h'${toHex(v.subarray(0, 24))}${v.length > 24 ? '…' : ''}' (${v.length} bytes)`;
  else if (typeof v === 'string') s = JSON.stringify(v);
  else if (typeof v === 'number' || typeof v === 'bigint') s = String(v);
  else if (Array.isArray(v)) s = `[${v.length} item(s)] ${enc(v).slice(0, 32)}…`;
  else if (v instanceof Map) s = `{${[...v.keys()].map(String).join(', ')}}`;
  else s = enc(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The fields in which two ok results differ, in words. */
function okDifference(testee: CborValue | undefined, ref: CborValue | undefined): string {
  if (testee instanceof Map && ref instanceof Map) {
    const keys = [...new Set([...testee.keys(), ...ref.keys()])].map(String);
    const differ = keys.filter((k) => testee.get(k) === undefined || ref.get(k) === undefined || enc(testee.get(k)!) !== enc(ref.get(k)!));
    return `ok results differ in ${differ
      .slice(0, 3)
      .map((k) => `${k} (testee ${brief(testee.get(k))}, reference ${brief(ref.get(k))})`)
      .join('; ')}${differ.length > 3 ? `; and ${differ.length - 3} more field(s)` : ''}`;
  }
  return `ok results differ (testee ${brief(testee)}, reference ${brief(ref)})`;
}

function describe(r: CborMap): string {
  const f = formOf(r);
  if (f === 'failure') return `failed as a program (${String((r.get('failure') as CborMap).get('kind'))})`;
  if (f === 'error') return `refused ${codeIn(r)}`;
  if (f === 'unimplemented') return 'unimplemented';
  return 'ok';
}

/** One stream's replay state: the fresh reference and the handle maps. */
class StreamReplay {
  private readonly ref = inProcessTransport();
  /** testee handle → reference handle, per argument name (tickets keyed by their testee point too). */
  private readonly handles = new Map<string, string>();
  private readonly folders = new Map<string, string>();

  constructor(private readonly scratch: () => string) {}

  private key(kind: string, value: string, args: CborMap): string {
    return kind === 'ticket' ? `ticket\u0000${String(args.get('point'))}\u0000${value}` : `${kind}\u0000${value}`;
  }

  /** The recorded args with the testee's handles (and durable folders) replaced by the reference's. */
  private substitute(op: string, args: CborValue): CborValue {
    if (!(args instanceof Map)) return args;
    const out: CborMap = new Map(args);
    for (const k of HANDLE_ARGS) {
      const v = args.get(k);
      if (typeof v === 'string') out.set(k, this.handles.get(this.key(k, v, args)) ?? v);
    }
    const path = args.get('path');
    if (op === 'durable.open' && typeof path === 'string') {
      const d = dirname(path);
      if (!this.folders.has(d)) this.folders.set(d, this.scratch());
      out.set('path', join(this.folders.get(d)!, basename(path)));
    }
    return out;
  }

  /** Learns the handles a pair of ok results chose, and returns the testee's result with them mapped. */
  private learn(op: string, args: CborValue, testee: CborValue | undefined, ref: CborValue | undefined): CborValue | undefined {
    const fields = HANDLE_RESULTS[op];
    if (!fields || !(testee instanceof Map) || !(ref instanceof Map) || !(args instanceof Map)) return testee;
    const mapped: CborMap = new Map(testee);
    for (const f of fields) {
      const t = testee.get(f);
      const r = ref.get(f);
      if (typeof t === 'string' && typeof r === 'string') {
        this.handles.set(this.key(f, t, args), r);
        mapped.set(f, r);
      }
    }
    return mapped;
  }

  async compare(stream: string, index: number, e: Entry): Promise<Comparison> {
    const form = formOf(e.response);
    const base = { stream, index, entry: e, form, ...(form === 'failure' ? { failure: String((e.response.get('failure') as CborMap).get('kind')) } : {}) };
    let ref: CborMap;
    try {
      ref = await this.ref.request(e.op, this.substitute(e.op, e.args) as CborInput);
    } catch (x) {
      if (x instanceof TesteeFailure) return { ...base, agree: false, difference: `the reference itself failed: ${x.message}` };
      throw x;
    }
    const refForm = formOf(ref);
    if (form === 'failure') return { ...base, agree: false, difference: `the testee ${describe(e.response)}; the reference answered ${describe(ref)}` };
    if (form !== refForm) return { ...base, agree: false, difference: `the testee ${describe(e.response)}; the reference ${describe(ref)}` };
    if (form === 'error') {
      // refusals compare by code only: messages are free
      const a = codeIn(e.response);
      const b = codeIn(ref);
      return a === b ? { ...base, agree: true } : { ...base, agree: false, difference: `the testee refused ${a}; the reference refused ${b}` };
    }
    if (form === 'unimplemented') return { ...base, agree: true };
    if (LIVE_ENDPOINT_OPS.has(e.op)) return { ...base, agree: true };
    const testeeOk = this.learn(e.op, e.args, e.response.get('ok'), ref.get('ok'));
    if (enc(testeeOk!) === enc(ref.get('ok')!)) return { ...base, agree: true };
    return { ...base, agree: false, difference: okDifference(testeeOk, ref.get('ok')) };
  }

  async close(): Promise<void> {
    await this.ref.close();
    for (const d of this.folders.values()) rmSync(d, { recursive: true, force: true });
  }
}

/** Replays every stream against its own fresh reference, in order; one comparison per entry. */
export async function replayStreams(streams: readonly ReadStream[]): Promise<Comparison[]> {
  const out: Comparison[] = [];
  const scratch = () => mkdtempSync(join(tmpdir(), 'jcp-reverify-'));
  for (const s of streams) {
    const r = new StreamReplay(scratch);
    try {
      for (const [i, e] of s.entries.entries()) out.push(await r.compare(s.name, i, e));
    } finally {
      await r.close();
    }
  }
  return out;
}
