// jcp §4.5 budget channels (C17): one enforcement point's side of a channel, as the typed client drives it.
import type { CborMap } from '../../impl/cbor/index.ts';
import type { Implementation } from '../implementation.ts';
import { U } from './values.ts';

/** One enforcement point's side of a budget channel living inside the implementation under test. */
export class ChannelHandle {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
  ) {}
  async spend(cost_uj: bigint): Promise<{ verdict: 'allow' | 'deny'; deny_reason?: string }> {
    const r = await this.impl._call('channel.spend', { channel: this.id, cost_uj });
    const reason = r.get('deny_reason');
    return { verdict: r.get('verdict') as 'allow' | 'deny', ...(typeof reason === 'string' ? { deny_reason: reason } : {}) };
  }
  /** This point's next signed statement of its cumulative spend (canonical bytes). */
  async statement(): Promise<Uint8Array> {
    return (await this.impl._call('channel.statement', { channel: this.id })).get('signed_statement') as Uint8Array;
  }
  async apply(statement: Uint8Array): Promise<void> {
    await this.impl._call('channel.apply', { channel: this.id, statement });
  }
  async ledger(): Promise<{ local_uj: bigint; total_uj: bigint; peers: Record<string, { seq: bigint; spent_uj: bigint }> }> {
    const r = await this.impl._call('channel.ledger', { channel: this.id });
    const peers = Object.fromEntries(
      [...(r.get('peers') as CborMap)].map(([k, v]) => [String(k), { seq: U((v as CborMap).get('seq')), spent_uj: U((v as CborMap).get('spent_uj')) }]),
    );
    return { local_uj: U(r.get('local_uj')), total_uj: U(r.get('total_uj')), peers };
  }
  /** The overdraft proof's bytes, or undefined when the merged ledger is within budget. */
  async overdraftProof(): Promise<Uint8Array | undefined> {
    return (await this.impl._call('channel.overdraft-proof', { channel: this.id })).get('proof') as Uint8Array | undefined;
  }
}
