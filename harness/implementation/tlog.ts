// jouleclaw §22 the transparency log (C-TLOG): a log living inside the implementation under test, as the typed client
// drives it.
import type { CborMap } from '../../impl/cbor/index.ts';
import type { DecideFields, Implementation, Point } from '../implementation.ts';
import { U, decideArgs } from './values.ts';

/** What an append answers: the entry's index, the signed head over the tree now holding it, its inclusion proof. */
export interface LogEntryResult {
  readonly index: bigint;
  readonly head: Uint8Array;
  readonly proof: readonly Uint8Array[];
}

/** A decision answered through a log: the entry is present whenever the decision was recorded. */
export interface LoggedDecisionResult {
  readonly verdict: 'allow' | 'deny';
  readonly deny_reason?: string;
  readonly receipt?: Uint8Array;
  readonly entry?: LogEntryResult;
}

function logEntry(r: CborMap): LogEntryResult {
  return { index: U(r.get('index')), head: r.get('head') as Uint8Array, proof: [...(r.get('proof') as Uint8Array[])] };
}

/** A transparency log living inside the implementation under test. */
export class TransparencyLogHandle {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
  ) {}
  /** Appends a sealed receipt; the head is signed at `now_s`. */
  async append(receipt: Uint8Array, now_s: bigint): Promise<LogEntryResult> {
    return logEntry(await this.impl._call('tlog.append', { log: this.id, receipt, now_s }));
  }
  /** Decides on `point` and appends the receipt before answering (jouleclaw §22.3). */
  async decide(point: Point, d: DecideFields): Promise<LoggedDecisionResult> {
    const r = await this.impl._call('tlog.decide', { ...decideArgs(point.id, d), log: this.id });
    const reason = r.get('deny_reason');
    return {
      verdict: r.get('verdict') as 'allow' | 'deny',
      ...(typeof reason === 'string' ? { deny_reason: reason } : {}),
      ...(r.has('receipt') ? { receipt: r.get('receipt') as Uint8Array } : {}),
      ...(r.has('entry') ? { entry: logEntry(r.get('entry') as CborMap) } : {}),
    };
  }
  /** The current head, signed at `now_s`. */
  async head(now_s: bigint): Promise<Uint8Array> {
    return (await this.impl._call('tlog.head', { log: this.id, now_s })).get('head') as Uint8Array;
  }
  /** The inclusion proof of entry `index` in the tree of `size`. */
  async inclusion(index: bigint, size: bigint): Promise<Uint8Array[]> {
    return [...((await this.impl._call('tlog.inclusion', { log: this.id, index, size })).get('proof') as Uint8Array[])];
  }
  /** The consistency proof from the tree of `size1` to that of `size2`. */
  async consistency(size1: bigint, size2: bigint): Promise<Uint8Array[]> {
    return [...((await this.impl._call('tlog.consistency', { log: this.id, size1, size2 })).get('proof') as Uint8Array[])];
  }
}
