// jcp §4.11 the durable record, one writer per record (C26): a durable point living inside the implementation under
// test, as the typed client drives it.
import type { DecideFields, Implementation } from '../implementation.ts';
import { decideArgs } from './values.ts';

/** What a durable point answered: a recorded decision with its receipt, or a request denied `unrecorded` (no receipt). */
export interface DurableDecisionResult {
  readonly verdict: 'allow' | 'deny';
  readonly deny_reason?: string;
  readonly receipt?: Uint8Array;
  /** The testee's name for the recorded decision (durable.status, durable.complete); absent when it gives none. */
  readonly entry?: string;
}

/** Where a recorded decision's action stands (jcp §4.11), and for an unresolved one the holder that held it. */
export interface DurableStatus {
  readonly status: 'denied' | 'in-flight' | 'unresolved' | 'completed' | 'failed';
  readonly holder?: string;
}

/** A durable enforcement point living inside the implementation under test, holding its record until closed. */
export class DurablePointHandle {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
    /** How many recorded entries the open replayed. */
    readonly replayed: bigint,
    /** Whether the open says it holds the record exclusively (jcp §4.11); undefined when the answer does not say. */
    readonly exclusive?: boolean,
    /** An incomplete last write the open found and cut away, as the testee describes it; undefined when it says none. */
    readonly tornTail?: { readonly offset: bigint; readonly length: bigint; readonly summary: string; readonly request_key?: Uint8Array },
  ) {}
  /** Decides as Point.decide; answers only once the decision is recorded. */
  async decide(d: DecideFields): Promise<DurableDecisionResult> {
    const r = await this.impl._call('durable.decide', decideArgs(this.id, d));
    const reason = r.get('deny_reason');
    const receipt = r.get('receipt');
    const entry = r.get('entry');
    return {
      verdict: r.get('verdict') as 'allow' | 'deny',
      ...(typeof reason === 'string' ? { deny_reason: reason } : {}),
      ...(receipt instanceof Uint8Array ? { receipt } : {}),
      ...(typeof entry === 'string' ? { entry } : {}),
    };
  }
  /** Records how the action of the allowed decision `entry` ended (optional op: UnimplementedError when absent). */
  async complete(entry: string, outcome: 'completed' | 'failed'): Promise<void> {
    await this.impl._call('durable.complete', { point: this.id, entry, outcome });
  }
  /** Where the action of the recorded decision `entry` stands (optional op: UnimplementedError when absent). */
  async status(entry: string): Promise<DurableStatus> {
    const r = await this.impl._call('durable.status', { point: this.id, entry });
    const holder = r.get('holder');
    return { status: r.get('status') as DurableStatus['status'], ...(typeof holder === 'string' ? { holder } : {}) };
  }
  /** Releases the record. */
  async close(): Promise<void> {
    await this.impl._call('durable.close', { point: this.id });
  }
}
