// jcp-conformance validate --testee '<command>': the handshake, then one well-formed request per operation of the
// protocol (every op of harness/protocol/schema.ts OPS), each response checked against that table by the transport.
// Says what conforms, what is unimplemented and what broke the protocol — before a full certification run is
// attempted. An op needing a handle from another op (a point, a ticket, a channel, a relay...) takes it from that op's
// answer; where that op was refused, a placeholder handle is sent, so the op is still reached and its answer (most
// likely a refusal) is still schema-checked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChannelHandle,
  DurablePointHandle,
  Forwarder,
  Implementation,
  Point,
  Relay,
  TesteeError,
  TransparencyLogHandle,
  JcRunHandle,
  TesteeFailure,
  UnimplementedError,
  type DecideFields,
  type FrameFields,
} from './implementation.ts';
import { OPS } from './protocol/schema.ts';
import { blake3, contentId, deriveSeed, keyPairFromSeed, type KeyPair } from './oracle.ts';

const key = (l: string): KeyPair => keyPairFromSeed(deriveSeed(`validate:${l}`));
const nonce = (l: string): Uint8Array => blake3(new TextEncoder().encode(l)).slice(0, 16);
const seed = (l: string): Uint8Array => deriveSeed(`validate:seed:${l}`);
/** A content id standing for a label (resources, payloads, event classes, states). */
const cid = (l: string): string => contentId({ validate: l });
const NO_ID = '0'.repeat(64);

/** What every group of attempts shares: the client, keys, the op outcomes, and the handles earlier answers gave. */
interface Run {
  readonly impl: Implementation;
  readonly issuer: KeyPair;
  readonly holder: KeyPair;
  readonly steward: KeyPair;
  readonly resource: string;
  /** Sends one op's request; records its outcome; the answer, or undefined when it was refused or unimplemented. */
  attempt<T>(op: string, f: () => Promise<T>): Promise<T | undefined>;
  grant: Uint8Array;
  grantId: string;
  receipt: Uint8Array;
  point: Point;
}

/** Runs the validation and prints a line per operation. Returns the exit code. */
export async function validateTestee(impl: Implementation): Promise<number> {
  let problems = 0;
  const results: Record<string, string> = {};
  const attempt = async <T>(op: string, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      const r = await f();
      results[op] = 'conforms';
      return r;
    } catch (e) {
      if (e instanceof TesteeError) results[op] = `conforms (refused ${e.code})`;
      else if (e instanceof UnimplementedError) results[op] = 'unimplemented';
      else if (e instanceof TesteeFailure) {
        results[op] = `BROKE THE PROTOCOL — ${e.message}`;
        problems++;
      } else throw e;
      return undefined;
    }
  };
  let info;
  try {
    info = await impl.info();
  } catch (e) {
    console.log(`hello: BROKE THE PROTOCOL — ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  console.log(`hello: ${info.name} ${info.version} speaks ${info.protocol}, claims ${info.claims.join(' ')}`);
  const run: Run = {
    impl,
    issuer: key('issuer'),
    holder: key('holder'),
    steward: key('steward'),
    resource: contentId({ resource: 'validate' }),
    attempt,
    grant: new Uint8Array([0xa0]),
    grantId: NO_ID,
    receipt: new Uint8Array([0xa0]),
    point: new Point(impl, 'no-point'),
  };
  try {
    for (const group of [baseline, metered, energy, rotationAndThreshold, checkpoints, channels, standing, replayAndAccounting, continuations, forwarding, durable, transparencyLog, jouleclawReceipts, jouleclawPolicy, sense]) {
      await group(run);
    }
  } finally {
    await impl.transport.close();
  }
  const ops = Object.keys(OPS).filter((op) => op !== 'hello');
  for (const op of ops) console.log(`${op}: ${results[op] ?? 'not reached'}`);
  const reached = ops.filter((op) => results[op] !== undefined).length;
  console.log(`${reached} of ${ops.length} operations reached`);
  console.log(problems ? `${problems} operation(s) broke the protocol` : 'every answer conforms to the protocol schema');
  return problems ? 1 : 0;
}

/** The decision request every point-like op sends: the holder exercising the run's grant for 1 µJ at now_s 1. */
function decision(run: Run, over: Partial<DecideFields> = {}): DecideFields {
  return { frame: frameOf(run), chain: [run.grant], caller: run.holder.did, cost: { uj: 1n, provenance: 'Estimator' }, now_s: 1n, ...over };
}
function frameOf(run: Run): FrameFields {
  return { kind: 'tool-call', trust: 'control', grant_id: run.grantId, action: 'call', resource: run.resource, payload_hash: cid('payload') };
}
/** A fresh point trusting the issuer over the run's resource, not itself recorded as an attempt; a placeholder if refused. */
async function freshPoint(run: Run): Promise<Point> {
  return (await quietly(() => run.impl.newPoint(run.steward.seed, { [run.resource]: [run.issuer.did] }))) ?? new Point(run.impl, 'no-point');
}
/** A setup request whose outcome is not reported (its op is attempted on its own elsewhere): undefined if it failed. */
async function quietly<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TesteeError || e instanceof UnimplementedError || e instanceof TesteeFailure) return undefined;
    throw e;
  }
}

/** jcp §2–§8: identities, CBOR, grants, revocations, frames, the enforcement point, receipts. */
async function baseline(run: Run): Promise<void> {
  const { impl, issuer, holder, steward, resource, attempt } = run;
  await attempt('identity.from-seed', () => impl.fromSeed(issuer.seed));
  await attempt('identity.parse-did', () => impl.parseDid(issuer.did));
  await attempt('ed25519.sign', () => impl.sign(issuer.seed, new Uint8Array([1, 2, 3])));
  await attempt('ed25519.verify', () => impl.verify(issuer.publicKey, new Uint8Array([1]), new Uint8Array(64)));
  await attempt('cbor.check', () => impl.cborCheck(new Uint8Array([0xa1, 0x61, 0x61, 0x01])));
  const m = await attempt('grant.mint', () => impl.mintGrant(issuer.seed, { subject: holder.did, resource, actions: ['call'], budget_uj: 10n, expiry: 5000n, nonce: nonce('g') }));
  if (m) [run.grant, run.grantId] = [m.signed_grant, m.grant_id];
  await attempt('grant.attenuate', () => impl.attenuate(run.grant, holder.seed, { subject: steward.did, budget_uj: 5n, nonce: nonce('c') }));
  await attempt('grant.shard', () => impl.shard(run.grant, holder.seed, [{ subject: steward.did, budget_uj: 5n, nonce: nonce('s') }]));
  await attempt('grant.verify', () => impl.verifyGrant(run.grant));
  await attempt('revocation.mint', () => impl.mintRevocation(issuer.seed, run.grantId, nonce('r')));
  await attempt('frame.check', () => impl.frameCheck(new Uint8Array([0xa0])));
  run.point = (await attempt('point.new', () => impl.newPoint(steward.seed))) ?? run.point;
  const p = run.point;
  await attempt('point.trust-roots', () => p.setTrustRoots(resource, [issuer.did]));
  const d = await attempt('point.decide', () => p.decide(decision(run)));
  if (d) run.receipt = d.receipt;
  await attempt('point.spent', () => p.spent(run.grantId));
  await attempt('receipt.verify', () => impl.verifyReceipt(run.receipt, steward.did));
  // Revokes on a point of its own, so the run's grant stays usable at the points later groups open.
  const q = await freshPoint(run);
  await attempt('point.revoke', async () => q.revoke(await impl.mintRevocation(issuer.seed, run.grantId, nonce('r2')), run.grant));
}

/** jcp §4.8 money (C22), §4.9 the metered path (C24), §4.10 taint floors (C25). */
async function metered(run: Run): Promise<void> {
  const { attempt, point: p } = run;
  const a = await attempt('point.authorize', () => p.authorize(decision(run)));
  const ticket = a?.verdict === 'authorized' ? a.ticket : 'no-ticket';
  await attempt('point.settle', () => p.settle(ticket, { uj: 1n, provenance: 'Estimator' }, 2n));
  await attempt('point.taint-floor', () => p.setTaintFloor(cid('floored'), ['origin:validate']));
  await attempt('point.spent-funds', () => p.spentFunds(run.grantId));
}

/** jcp §5 energy honesty (C9): pure judgements over samples. */
async function energy(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const samples = [
    { t_ns: 0n, value: 100n },
    { t_ns: 1_000_000_000n, value: 5_000_100n },
  ];
  const figure = { estimated_uj: 5n, provenance: 'Estimator' };
  await attempt('energy.make', () => impl.energyMake({ ...figure, obtained: { how: 'uncalibrated-model' } }));
  await attempt('energy.liveness', () => impl.energyLiveness([{ name: 'package-0', samples }]));
  await attempt('energy.rapl', () => impl.energyRapl([{ zone: 'intel-rapl:0', name: 'package-0', samples }]));
  await attempt('energy.plausibility', () => impl.energyPlausibility(5_000_000n, 1_000_000_000n, { draw_mw: [5000n] }));
  await attempt('energy.ladder', () => impl.energyLadder({ rungs: [{ rung: 'rapl', status: 'absent' }], estimated_uj: 5n }));
  await attempt('energy.task-total', () => impl.energyTaskTotal(figure));
  const payload = await attempt('energy.efficiency-seal', () => impl.energyEfficiencySeal(figure, 10n));
  await attempt('energy.efficiency-read', () => impl.energyEfficiencyRead(payload ?? { energy_uj: 5n }));
  await attempt('energy.efficiency-totals', () => impl.energyEfficiencyTotals([payload ?? { energy_uj: 5n, provenance: 'Estimator' }], 1n));
  await attempt('energy.trace', () => impl.energyTrace({ uj: 5n, provenance: 'Estimator' }, ['a'], { a: { uj: 3n, provenance: 'Estimator' } }));
  await attempt('energy.conservation-floor', () => impl.energyConservationFloor(1000n, ['Estimator']));
  await attempt('energy.physical-bound', () => impl.energyPhysicalBound(5_000_000n, 1_000_000_000n, 1000n, 100_000n));
  const thread = { before_nj: 10n, after_nj: 10n };
  await attempt('energy.proc-span', () => impl.energyProcSpan({ self: { start: thread, stop: thread }, gaps: [] }));
}

/** jcp §2.1 rotation (C12), §2.2 threshold actors (C13, C18). */
async function rotationAndThreshold(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const [k0, k1, k2] = [key('rot-0'), key('rot-1'), key('rot-2')];
  const inception = await attempt('rotation.incept', () => impl.incept(k0.seed, k1.publicKey, nonce('incept')));
  const first = inception?.key_event ?? new Uint8Array([0xa0]);
  const rotation = await attempt('rotation.rotate', () => impl.rotate(first, k1.seed, k2.publicKey, nonce('rotate')));
  await attempt('rotation.verify', () => impl.verifyKeyLog(rotation ? [first, rotation.key_event] : [first]));
  const dealt = await attempt('threshold.dealer', () => impl.thresholdDealer(2, 3, seed('dealer')));
  await attempt('threshold.dkg', () => impl.thresholdDkg(2, 3, [seed('dkg-1'), seed('dkg-2'), seed('dkg-3')]));
  const group = { min: 2, max: 3, group_public_key: dealt?.group_public_key ?? new Uint8Array(32) };
  const signers = dealt?.shares.slice(0, 2) ?? [1, 2].map((identifier) => ({ identifier, signing_share: seed(`share-${identifier}`) }));
  await attempt('threshold.sign', () => impl.thresholdSign(group, signers, new Uint8Array([1, 2, 3]), seed('nonces')));
}

/** jcp §4.7 checkpoints and amendments (C21): the holder checkpoints its run, the issuer amends it. */
async function checkpoints(run: Run): Promise<void> {
  const { impl, attempt, issuer, holder, grant } = run;
  const cp = await attempt('checkpoint.sign', () => impl.signCheckpoint(holder.seed, grant, { state: cid('state'), spent: { uj: 1n, provenance: 'Estimator' } }));
  const checkpoint = cp?.signed_checkpoint ?? new Uint8Array([0xa0]);
  const am = await attempt('checkpoint.amend', () => impl.amendCheckpoint(issuer.seed, grant, checkpoint, { budget_uj: 5n }));
  await attempt('checkpoint.verify', () =>
    impl.verifyCheckpoint({ grant, checkpoint, amendment: am?.signed_amendment ?? new Uint8Array([0xa0]), ...(am ? { continuation: am.continuation.signed_grant } : {}) }),
  );
}

/** jcp §4.5 budget channels (C17): two points sharing the run's grant, one applying the other's statement. */
async function channels(run: Run): Promise<void> {
  const { impl, attempt, grant } = run;
  const [a, b] = [key('channel-a'), key('channel-b')];
  const members = [a.did, b.did];
  const mine = await attempt('channel.open', () => impl.openChannel(a.seed, [grant], members));
  const theirs = await quietly(() => impl.openChannel(b.seed, [grant], members));
  const ch = mine ?? new ChannelHandle(impl, 'no-channel');
  await attempt('channel.spend', () => ch.spend(1n));
  const statement = theirs && (await quietly(async () => (await theirs.spend(2n), await theirs.statement())));
  await attempt('channel.statement', () => ch.statement());
  await attempt('channel.apply', () => ch.apply(statement ?? new Uint8Array([0xa0])));
  await attempt('channel.ledger', () => ch.ledger());
  const proof = await attempt('channel.overdraft-proof', () => ch.overdraftProof());
  // Within budget there is no proof: an empty map stands in, which a conforming testee refuses.
  await attempt('channel.verify-overdraft', () => impl.verifyOverdraft(proof ?? new Uint8Array([0xa0]), members));
}

/** jcp §4.6 standing grants (C20): the issuer authors a mint policy, the holder fires it at the run's point. */
async function standing(run: Run): Promise<void> {
  const { impl, attempt, issuer, holder, steward, grant, grantId, point: p } = run;
  const event_class = cid('event-class');
  const policy = await attempt('standing.author', () => impl.authorPolicy(issuer.seed, grant, { event_class, per_firing_uj: 1n, max_firings: 2n }));
  await attempt('standing.fire', () =>
    impl.fire(p, { policy: policy?.signed_policy ?? new Uint8Array([0xa0]), grant, holder_seed: holder.seed, event_class, child: { subject: steward.did, nonce: nonce('fire') } }),
  );
  await attempt('standing.ledger', () => impl.mintLedger(p, policy?.policy_id ?? NO_ID, grantId));
}

/** jcp §8.1 replay (C14, C16) into a fresh point, §8.2 group accounting (C14), over the run's one receipt. */
async function replayAndAccounting(run: Run): Promise<void> {
  const { impl, attempt, steward, receipt } = run;
  const fresh = await freshPoint(run);
  await attempt('point.replay', () => impl.replay(fresh, [receipt]));
  await attempt('accounting.group', () => impl.groupAccounting(steward.did, [receipt]));
}

/** jcp §6.1 continuations: a relay's first request, bound to a handle, a later exchange, its admission and close. */
async function continuations(run: Run): Promise<void> {
  const { impl, attempt, steward } = run;
  const p = await freshPoint(run);
  const relay = (await attempt('continuation.relay', () => impl.newRelay(p, steward.seed))) ?? new Relay(impl, 'no-relay');
  const first = await attempt('continuation.first', () => relay.first(decision(run)));
  const handle = 'validate-task';
  await attempt('continuation.bind', () => relay.bind(first?.receipt_id ?? NO_ID, handle));
  const { frame, chain, caller, cost } = decision(run);
  await attempt('continuation.next', () => relay.next({ handle, sent_hash: cid('sent'), frame, chain, caller, cost, now_s: 2n }));
  await attempt('continuation.admit', () => relay.admit(handle, cid('outcome')));
  await attempt('continuation.close', () => relay.close(handle, cid('outcome'), 3n));
}

/** jcp §4.10 forwarding (C25): a forwarder gated by a fresh point sends one labelled request. */
async function forwarding(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const p = await freshPoint(run);
  const f = (await attempt('forward.new', () => impl.newForwarder(p))) ?? new Forwarder(impl, 'no-forwarder', []);
  const { payload_hash: _, ...route } = frameOf(run);
  const { chain, caller, cost, now_s } = decision(run);
  const bottom = { integrity: 'principal', origins: [], readers: 'all' } as const;
  await attempt('forward.send', () => f.send({ route, chain, caller, cost, now_s, arguments: { q: 'validate' }, arguments_label: bottom, fields: [] }));
}

/** jouleclaw §2/§7 cascade receipts, §16 contracts + verdict receipts, §17 handoffs + run journal. */
async function jouleclawReceipts(run: Run): Promise<void> {
  const { impl, steward, attempt } = run;
  const tools = [{ tool_id: 't', joules_uj: 1, energy_provenance: 'Estimator' }];
  const w = { id: '00000000-0000-4000-8000-000000000001', closed_at: '2026-01-01T00:00:00Z', input_hash: '0'.repeat(64), tier: 'L0', joules_uj: 1, tools_touched: tools, claims: [] };
  const r = await attempt('jc.receipt.build', () => impl.jcBuildReceipt(w));
  await attempt('jc.receipt.check', () => impl.jcCheckReceipt(r ?? { jc_receipt: '1', ...w, energy_provenance: 'Estimator' }));
  await attempt('jc.receipt.open', () => impl.jcOpenReceipt(new Uint8Array([0xa0])));
  const contract = { jc_contract: 'contract/1', title: 'v', assertions: [{ id: 'A', title: 'a', priority: 'must_have', check: { kind: 'checker', checker_id: 'k' } }], features: [] };
  await attempt('jc.contract.check', () => impl.jcCheckContract(contract));
  const v = await attempt('jc.contract.verify', () => impl.jcVerifyContract(contract, []));
  const sealed = await attempt('jc.verdict.seal', () => impl.jcSealVerdict({ steward_seed: steward.seed, id: w.id, closed_at: w.closed_at, engine_id: 'v', audit_sequence: 0n, verdict_json: v?.verdict_json ?? '{}' }));
  await attempt('jc.verdict.open', () => impl.jcOpenVerdict(sealed ?? new Uint8Array([0xa0])));
  const j = await attempt('jc.run.start', () => impl.jcStartRun('validate', [{ node_id: 'n', replay: 'safe' }]));
  const h = j ?? new JcRunHandle(impl, 'no-run');
  await attempt('jc.run.dispatch', () => h.dispatch('n'));
  await attempt('jc.run.handoff', () => h.handoff({ worker: 'w', closed_at: 0n }));
  const s = await attempt('jc.run.state', () => h.state());
  const o = await attempt('jc.run.open', () => impl.jcOpenRun(s?.entries ?? [new Uint8Array([0xa0])]));
  const h2 = o?.run ?? h;
  await attempt('jc.run.recover', () => h2.recover());
  await attempt('jc.run.complete', () => h2.complete('n', 1n));
  await attempt('jc.run.approve', () => h2.approve('n', 'op'));
  await attempt('jc.run.fail', () => h2.fail('validate'));
}

/** jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest and policy/1 receipts. */
async function jouleclawPolicy(run: Run): Promise<void> {
  const { impl, attempt, steward, holder } = run;
  const read = { kind: 'filesystem', path: '/workspace/x', mode: 'read' } as const;
  const policy = { version: 1n, rules: [{ name: 'read-workspace', effect: 'allow' as const, agents: 'any' as const, action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }] };
  await attempt('jc.agent-check', () => impl.jcAgentCheck(holder.did, holder.publicKey));
  const digest = await attempt('jc.policy-digest', () => impl.jcPolicyDigest(policy));
  await attempt('jc.policy-evaluate', () => impl.jcPolicyEvaluate('validate', [{ evaluate: { agent: holder.did, action: read } }], { policy }));
  const sealed = await attempt('jc.policy-receipt', () =>
    impl.jcPolicyReceipt(steward.seed, { id: '00000000-0000-4000-8000-000000000002', closed_at: '2026-01-01T00:00:00Z', engine_id: 'validate', audit_sequence: 1n, policy_version: 1n, ...(digest ? { policy_digest: digest } : {}), agent: holder.did, action: read, decision: { kind: 'allow', rule: 'read-workspace' } }),
  );
  await attempt('jc.verify-policy-receipt', () => impl.jcVerifyPolicyReceipt(sealed ?? new Uint8Array([0xa0]), { steward: steward.did }));
}

/** sense §2–§11 (sense:C1–C6): one event, replay, clock, projection, detector, gate, recall, chain and an injection. */
async function sense(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const host = key('sense-host');
  const ev = { physical_ns: 1n, logical: 0n, source: 'shell', trust: 'FirstParty', payload: new Uint8Array([1]), line: 'git status' };
  const id = await attempt('sense.event-id', () => impl.senseEventId(ev));
  await attempt('sense.replay', () => impl.senseReplay([ev]));
  await attempt('sense.clock', () => impl.senseClock([5n], { physical_ns: 1n, logical: 0n }));
  await attempt('sense.project', () => impl.senseProject([{ source: 'shell', trust: 'FirstParty' }]));
  await attempt('sense.detect', () => impl.senseDetect('salience', [100_000n, 900_000n]));
  await attempt('sense.gate', () => impl.senseGate([{ probe: 'salience', score: 900_000n }], { engagement_ppm: 0n, active_modality: 'audio', surface_modality: 'visual' }, 10n, 5n));
  await attempt('sense.ask', () => impl.senseAsk([ev], 'what was the last command?', 4n));
  const event_id = id?.event_id ?? '0'.repeat(64);
  const sealed = await attempt('sense.seal', () =>
    impl.senseSeal(host.seed, [{ event_id, trust: 'FirstParty', highlight: { probe: 'salience', score: 900_000n }, value: 900_000n, cost: 0n, decision: 'surface', charged_uj: 5n, budget_uj: 5n }]),
  );
  const links = sealed?.links ?? [new Uint8Array([0xa0])];
  await attempt('sense.verify-chain', () => impl.senseVerifyChain(host.did, links));
  await attempt('sense.inject', () =>
    impl.senseInject({ link: links[0]!, recipient: key('sense-agent').did, position: 0n, destination: 'own', run_state: 'running', delivery: { uj: 1n, provenance: 'Estimator' } }),
  );
  await attempt('sense.agent-kinds', () => impl.senseAgentKinds());
  await attempt('sense.agent-author', () => impl.senseAgentAuthor('injected_observation'));
}

/** jouleclaw §22 transparency log (C-TLOG): a log, a decision appended on its path, a receipt appended, heads and proofs made and verified. */
async function transparencyLog(run: Run): Promise<void> {
  const { impl, attempt, steward } = run;
  const log = (await attempt('tlog.new', () => impl.newLog(steward.seed))) ?? new TransparencyLogHandle(impl, 'no-log');
  const point = await freshPoint(run);
  const d = await attempt('tlog.decide', () => log.decide(point, decision(run)));
  const e = await attempt('tlog.append', () => log.append(d?.receipt ?? run.receipt, 2n));
  const h1 = d?.entry?.head ?? new Uint8Array([0xa0]);
  const h2 = (await attempt('tlog.head', () => log.head(3n))) ?? e?.head ?? new Uint8Array([0xa0]);
  const inc = (await attempt('tlog.inclusion', () => log.inclusion(0n, 2n))) ?? [];
  const cons = (await attempt('tlog.consistency', () => log.consistency(1n, 2n))) ?? [];
  await attempt('tlog.verify-head', () => impl.verifyTreeHead(h2, steward.did));
  await attempt('tlog.verify-inclusion', () => impl.verifyLogInclusion(h2, steward.did, d?.receipt ?? run.receipt, 0n, inc));
  await attempt('tlog.verify-consistency', () => impl.verifyLogConsistency(h1, h2, steward.did, cons));
}

/** jcp §4.11 durable record (C26): a record in a temporary directory, opened, decided on, closed, then removed. */
async function durable(run: Run): Promise<void> {
  const { impl, attempt, issuer, steward, resource } = run;
  const dir = mkdtempSync(join(tmpdir(), 'jcp-validate-'));
  try {
    const dp =
      (await attempt('durable.open', () => impl.openDurable(join(dir, 'record'), 'validate', steward.seed, { [resource]: [issuer.did] }))) ??
      new DurablePointHandle(impl, 'no-durable-point', 0n);
    await attempt('durable.decide', () => dp.decide(decision(run)));
    await attempt('durable.close', () => dp.close());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
