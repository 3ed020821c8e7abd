// jcp §4.10 forwarding (C25): a forwarder living inside the implementation under test, as the typed client drives it.
import type { CborInput } from '../../impl/cbor/index.ts';
import type { DecideFields, DecisionResult, FrameFields, Implementation, LabelFields } from '../implementation.ts';
import { decisionResult, labelArg, omitUndef, plain } from './values.ts';

/** One field a forwarded request carries besides routing and arguments; `label` absent = the host gave none. */
export interface ForwardFieldFields {
  readonly name: string;
  readonly value: CborInput;
  readonly label?: LabelFields;
}

/** A request to forward: a decision request whose frame is a route (no payload_hash), with arguments and fields. */
export interface ForwardFields extends Omit<DecideFields, 'frame' | 'label'> {
  readonly route: Omit<FrameFields, 'payload_hash'>;
  readonly arguments: CborInput;
  readonly arguments_label?: LabelFields;
  readonly fields?: readonly ForwardFieldFields[];
}

/** What forward.send answered. */
export interface ForwardedResult extends DecisionResult {
  readonly payload_hash: string;
  /** The bytes forwarded to the endpoint (allow only). */
  readonly forwarded?: Uint8Array;
  readonly label?: LabelFields;
  readonly omitted: readonly string[];
  readonly dropped: readonly string[];
}

/** A forwarder living inside the implementation under test (jcp §4.10). */
export class Forwarder {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
    /** The fixed machinery it declared it leaves out of the label. */
    readonly omittedFields: readonly string[],
  ) {}
  async send(f: ForwardFields): Promise<ForwardedResult> {
    const r = await this.impl._call('forward.send', {
      forwarder: this.id,
      route: omitUndef({ ...f.route }),
      chain: [...f.chain],
      caller: f.caller,
      cost: omitUndef({ ...f.cost }),
      now_s: f.now_s,
      cost_funds: f.cost_funds === undefined ? undefined : { ...f.cost_funds },
      arguments: f.arguments,
      arguments_label: labelArg(f.arguments_label),
      fields: f.fields?.map((x) => omitUndef({ name: x.name, value: x.value, label: labelArg(x.label) })),
    });
    const label = r.get('label');
    const forwarded = r.get('forwarded');
    return {
      ...decisionResult(r),
      payload_hash: r.get('payload_hash') as string,
      ...(forwarded !== undefined ? { forwarded: forwarded as Uint8Array } : {}),
      ...(label !== undefined ? { label: plain(label) as LabelFields } : {}),
      omitted: r.get('omitted') as string[],
      dropped: r.get('dropped') as string[],
    };
  }
}
