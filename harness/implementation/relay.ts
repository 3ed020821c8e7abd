// jcp §8.1 replay (C14, C16), §8.2 group accounting (C14) and §6.1 continuations: what the typed client answers, and
// the continuation relay it drives.
import type { CborMap } from '../../impl/cbor/index.ts';
import type { DecideFields, DecisionResult, FrameFields, Implementation, LabelFields } from '../implementation.ts';
import { decisionResult, labelArg, omitUndef, plain, plainFrame, requestArgs } from './values.ts';

/** What point.replay answered. */
export interface ReplayResult {
  readonly verified: bigint;
  readonly allowed: bigint;
  readonly refused: bigint;
  readonly refusals: ReadonlyArray<{ readonly index: bigint; readonly code: string }>;
  readonly spend: ReadonlyMap<string, bigint>;
}

/** What accounting.group answered. */
export interface GroupLedgerResult {
  readonly rows: ReadonlyArray<{ grant_id: string; subject: string; allowed: bigint; refused: bigint; spent_uj: bigint }>;
  readonly verified: bigint;
  readonly unverified: bigint;
  readonly failures: ReadonlyArray<{ readonly index: bigint; readonly code: string }>;
}

/** A sealed decision of a relay, with its receipt's id (the content id of the receipt bytes). */
export interface RelayedResult extends DecisionResult {
  readonly receipt_id: string;
}

/** A later exchange as sent to continuation.next. */
export interface LaterFields {
  readonly handle: string;
  readonly sent_hash: string;
  readonly frame: FrameFields;
  readonly chain: readonly Uint8Array[];
  readonly caller: string;
  readonly cost: DecideFields['cost'];
  readonly now_s: bigint;
  readonly label?: LabelFields;
}

function relayedResult(r: CborMap): RelayedResult {
  return { ...decisionResult(r), receipt_id: r.get('receipt_id') as string };
}

/** A continuation relay living inside the implementation under test (jcp §6.1). */
export class Relay {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
  ) {}
  async first(d: DecideFields): Promise<RelayedResult> {
    const r = await this.impl._call('continuation.first', {
      relay: this.id,
      ...requestArgs(d),
    });
    return relayedResult(r);
  }
  async bind(receipt_id: string, handle: string): Promise<void> {
    await this.impl._call('continuation.bind', { relay: this.id, receipt_id, handle });
  }
  async next(x: LaterFields): Promise<RelayedResult> {
    const r = await this.impl._call('continuation.next', {
      relay: this.id,
      handle: x.handle,
      sent_hash: x.sent_hash,
      ...requestArgs(x),
    });
    return relayedResult(r);
  }
  async admit(handle: string, outcome_digest: string, output_label?: LabelFields): Promise<{ frame: FrameFields; label?: LabelFields }> {
    const r = await this.impl._call('continuation.admit', { relay: this.id, handle, outcome_digest, output_label: labelArg(output_label) });
    const label = r.get('label');
    return { frame: plainFrame(r.get('frame') as CborMap), ...(label !== undefined ? { label: plain(label) as LabelFields } : {}) };
  }
  async close(handle: string, outcome_digest: string, now_s: bigint, between?: DecideFields['cost']): Promise<RelayedResult & { record: Uint8Array }> {
    const r = await this.impl._call('continuation.close', { relay: this.id, handle, outcome_digest, now_s, between: between === undefined ? undefined : omitUndef({ ...between }) });
    return { ...relayedResult(r), record: r.get('record') as Uint8Array };
  }
}
