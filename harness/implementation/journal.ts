// jouleclaw §17 the run journal: a run living inside the implementation under test, as the typed client drives it.
import type { CborValue } from '../../impl/cbor/index.ts';
import type { Implementation } from '../implementation.ts';
import { omitUndef, plain } from './values.ts';

/** A run journal living inside the implementation under test (jouleclaw §17). */
export class JcRunHandle {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
  ) {}
  /** Records the dispatch of `node_id` (a refusal if it is in flight, held, done, or the run is unrecovered/failed). */
  async dispatch(node_id: string): Promise<void> {
    await this.impl._call('jc.run.dispatch', { run: this.id, node_id });
  }
  async complete(node_id: string, energy_uj: bigint): Promise<void> {
    await this.impl._call('jc.run.complete', { run: this.id, node_id, energy_uj });
  }
  /** Marks every node in flight interrupted, with the energy observed so far; the nodes it marked. */
  async recover(observed_uj?: Readonly<Record<string, bigint>>): Promise<string[]> {
    const r = await this.impl._call('jc.run.recover', { run: this.id, observed_uj: observed_uj === undefined ? undefined : { ...observed_uj } });
    return [...(r.get('interrupted') as string[])];
  }
  async approve(node_id: string, approved_by: string): Promise<void> {
    await this.impl._call('jc.run.approve', { run: this.id, node_id, approved_by });
  }
  async fail(reason: string): Promise<void> {
    await this.impl._call('jc.run.fail', { run: this.id, reason });
  }
  /** Records a handoff; the handoff as recorded (every list present, command hashes computed). */
  async handoff(h: {
    worker: string;
    node_id?: string;
    feature_id?: string;
    closed_at: bigint;
    completed?: string[];
    undone?: string[];
    commands?: { argv: string[]; exit_code: bigint }[];
    issues_found?: string[];
    procedures_followed?: string[];
  }): Promise<Record<string, unknown>> {
    const r = await this.impl._call('jc.run.handoff', { run: this.id, handoff: omitUndef({ ...h, commands: h.commands?.map((c) => ({ argv: [...c.argv], exit_code: c.exit_code })) }) });
    return plain(r.get('handoff') as CborValue) as Record<string, unknown>;
  }
  /** The run's nodes by state, its status, and its journal entries. */
  async state(): Promise<{ ready: string[]; in_flight: string[]; held: string[]; completed: string[]; status: string; entries: Uint8Array[] }> {
    const r = await this.impl._call('jc.run.state', { run: this.id });
    const list = (k: string): string[] => [...(r.get(k) as string[])];
    return { ready: list('ready'), in_flight: list('in_flight'), held: list('held'), completed: list('completed'), status: r.get('status') as string, entries: [...(r.get('entries') as Uint8Array[])] };
  }
}
