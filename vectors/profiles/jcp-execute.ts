// Runs one profiles.json vector of jcp:P-PROPAGATION, jcp:P-DYNAMISM, jcp:P-INFLIGHT or jcp:P-TRACE through the
// profiles' testee operations (harness/protocol/profiles/jcp.md; durable.* and energy.* of harness/PROTOCOL.md) and
// reports only what the profiles' clauses decide, read from the answer the way the profiles' conformance tests read it
// (harness/conformance/p-jcp-propagation, p-jcp-dynamism, durable, energy.test.ts), so that every reading the spec
// permits gives the same JSON:
// - a propagation path: only the decisions taken once the path has run for their point, whether the path is defined
//   (non-empty), and whether the markers hold where stated (jcp §4.3: the path's kind, whether a point is reached before
//   its delivery, whether markers are stated at all and who refuses a revocation whose authority does not verify — the
//   path or the point — are open, so none of them is reported);
// - a window judgement: each window's finding as answered where the request is one every reading judges; where the
//   request carries an undeclared baseline or an evidence-less cause (jcp.md: a testee may refuse either), only the
//   predicate the clause decides — "applied" per window, or "explained" per window not named by an evidenced cause —
//   a refusal giving what it establishes (applied nowhere, explained nothing);
// - a declared shape: the finding where it judges the declaration, `{judged: false}` where it does not (a late
//   declaration reads not-in-advance or is refused: jcp.md);
// - a durable record's decisions and statuses, not the holder a status names (§4.11 "naming the party that held it"
//   is not what the profile's clauses decide, and the protocol makes it optional);
// - a counter's plausibility: whether it is reported as having overrun; a conservation floor: what it rests on; a
//   physical bound: the finding.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnimplementedError, type DecideFields, type Implementation, type Minted, type Point, type DurablePointHandle } from '../../harness/implementation.ts';
import { refusal } from '../jc-execute.ts';
import { arr, hex, obj, str, text, uint } from '../inputs.ts';
import type { Json, JsonObject } from '../model.ts';
import type { JCP_PROFILE_TYPES } from './jcp-kinds.ts';
import type { KindExecutor } from './group.ts';

type Kind = (typeof JCP_PROFILE_TYPES)[number];

const optUint = (v: unknown): bigint | undefined => (v === undefined ? undefined : BigInt(v as bigint | number));
/** A refusal's code, or undefined when `f` answered. */
async function refused(f: () => Promise<unknown>): Promise<string | undefined> {
  const r = await refusal(async () => {
    await f();
    return {};
  });
  return typeof r['error'] === 'string' ? r['error'] : undefined;
}

// ---- jcp:P-PROPAGATION (jcp §4.3) -------------------------------------------------------------------------------

/** propagation.audit: each allow's verdict against a revocation issued at `revoked_at`, as answered. */
async function propagationAudit(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const allows = arr(inp['allows'], 'allows').map((a, i) => {
    const o = obj(a, `allows[${i}]`);
    return o['known_through'] === undefined ? {} : { known_through: uint(o['known_through'], `allows[${i}].known_through`) };
  });
  const v = (await impl._call('propagation.audit', { revoked_at: uint(inp['revoked_at'], 'revoked_at'), allows })).get('verdicts');
  if (!Array.isArray(v)) throw new Error('propagation.audit answered no verdicts array');
  return { verdicts: v.map((x) => text(x, 'a verdict')) };
}

/** A decision's verdict as the vector reports it: `allow`, or `deny` with its reason. */
const verdictOf = (d: { verdict: string; deny_reason?: string }): JsonObject => (d.verdict === 'allow' ? { verdict: 'allow' } : { verdict: String(d.verdict), ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}) });

/**
 * A propagation script (jcp §4.3): grants minted or attenuated through the testee, one fresh feed, named points of
 * `steward_seed`, then the ops in order — `issue` (a revocation signed by `revoker_seed` enters the feed), `deliver`
 * (the path run to completion for a point), `decide` (a chain at a point). Reports `defined` (propagation.define names
 * a non-empty path), each decision's verdict, and `markers_hold`: where the testee states markers, a point that has
 * been delivered the revocation issued at M states known_through ≥ M and its marker never goes back (true where it
 * states none: a SHOULD).
 */
async function propagationPath(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const path = (await impl._call('propagation.define', {})).get('path');
  const defined = typeof path === 'string' && path.trim().length > 0;
  const minted: Minted[] = [];
  for (const [i, g] of arr(inp['grants'], 'grants').entries()) {
    const o = obj(g, `grants[${i}]`);
    if (o['mint'] !== undefined) {
      const m = obj(o['mint'], `grants[${i}].mint`);
      minted.push(
        await impl.mintGrant(hex(m['issuer_seed'], 'mint.issuer_seed'), {
          subject: str(m['subject'], 'mint.subject'),
          resource: str(m['resource'], 'mint.resource'),
          actions: arr(m['actions'], 'mint.actions').map((a) => str(a, 'mint.actions[]')),
          budget_uj: uint(m['budget_uj'], 'mint.budget_uj'),
          nonce: hex(m['nonce'], 'mint.nonce'),
        }),
      );
    } else {
      const a = obj(o['attenuate'], `grants[${i}].attenuate`);
      const parent = minted[Number(uint(a['parent'], 'attenuate.parent'))];
      if (!parent) throw new Error(`vector input grants[${i}].attenuate.parent names no earlier grant`);
      minted.push(await impl.attenuate(parent.signed_grant, hex(a['holder_seed'], 'attenuate.holder_seed'), { subject: str(a['subject'], 'attenuate.subject'), nonce: hex(a['nonce'], 'attenuate.nonce') }));
    }
  }
  const stewardSeed = hex(inp['steward_seed'], 'steward_seed');
  const points = new Map<string, Point>();
  for (const name of arr(inp['points'], 'points')) points.set(str(name, 'points[]'), await impl.newPoint(stewardSeed));
  const pointOf = (v: Json | undefined): Point => {
    const p = points.get(str(v, 'point'));
    if (!p) throw new Error(`vector input names no point ${String(v)}`);
    return p;
  };
  const grantAt = (v: Json | undefined): Minted => {
    const g = minted[Number(uint(v, 'grant index'))];
    if (!g) throw new Error(`vector input names no grant ${String(v)}`);
    return g;
  };
  const feed = text((await impl._call('propagation.feed-new', {})).get('feed'), 'feed');
  const issuedAt: bigint[] = [];
  const knownThrough = new Map<string, bigint>();
  let markersHold = true;
  const decisions: Json[] = [];
  for (const [i, x] of arr(inp['ops'], 'ops').entries()) {
    const op = obj(x, `ops[${i}]`);
    if (op['issue'] !== undefined) {
      const o = obj(op['issue'], `ops[${i}].issue`);
      const g = grantAt(o['grant']);
      const revocation = await impl.mintRevocation(hex(o['revoker_seed'], 'issue.revoker_seed'), g.grant_id, hex(o['nonce'], 'issue.nonce'));
      // §4.3 binds the point ("MUST verify authority before honoring one"): whether the path refuses a revocation whose
      // authority does not verify or carries it to points that then ignore it is open, so a refusal here is not reported
      const r = await refusal(async () => {
        const m = optUint((await impl._call('propagation.issue', { feed, revocation, grant: g.signed_grant })).get('marker'));
        return m === undefined ? {} : { marker: Number(m) };
      });
      if (typeof r['marker'] === 'number') issuedAt.push(BigInt(r['marker']));
    } else if (op['deliver'] !== undefined) {
      const name = str(op['deliver'], `ops[${i}].deliver`);
      const k = optUint((await impl._call('propagation.deliver', { feed, point: pointOf(name).id })).get('known_through'));
      if (k !== undefined) {
        const before = knownThrough.get(name);
        if (before !== undefined && k < before) markersHold = false;
        if (issuedAt.some((m) => k < m)) markersHold = false;
        knownThrough.set(name, k);
      }
    } else {
      const o = obj(op['decide'], `ops[${i}].decide`);
      const chain = arr(o['chain'], 'decide.chain').map(grantAt);
      const leaf = chain[chain.length - 1]!;
      const d: DecideFields = {
        frame: { kind: 'tool-call', trust: 'control', grant_id: leaf.grant_id, action: 'call', resource: str(o['resource'], 'decide.resource'), payload_hash: str(o['payload_hash'], 'decide.payload_hash') },
        chain: chain.map((g) => g.signed_grant),
        caller: str(o['caller'], 'decide.caller'),
        cost: { uj: uint(o['uj'], 'decide.uj'), provenance: 'Estimator' },
        now_s: uint(o['now_s'], 'decide.now_s'),
      };
      decisions.push(verdictOf(await pointOf(o['point']).decide(d)));
    }
  }
  return { defined, decisions, markers_hold: markersHold };
}

// ---- jcp:P-DYNAMISM (jcp §5.4, §5.6) ----------------------------------------------------------------------------

/** dynamism.windows's arguments from a vector's inputs (integers as bigint). */
function windowsArgs(inp: JsonObject): Record<string, unknown> {
  const on = (v: Json | undefined, what: string) => {
    const o = obj(v, what);
    return { silicon: str(o['silicon'], `${what}.silicon`), occupancy: str(o['occupancy'], `${what}.occupancy`), sampling_ns: uint(o['sampling_ns'], `${what}.sampling_ns`) };
  };
  const b = obj(inp['baseline'], 'baseline');
  return {
    series: on(inp['series'], 'series'),
    windows: arr(inp['windows'], 'windows').map((w, i) => ({ duration_ns: uint(obj(w, `windows[${i}]`)['duration_ns'], 'duration_ns'), uj: uint(obj(w, `windows[${i}]`)['uj'], 'uj') })),
    baseline: { lo_uj: uint(b['lo_uj'], 'baseline.lo_uj'), hi_uj: uint(b['hi_uj'], 'baseline.hi_uj'), ...(b['measured_on'] !== undefined ? { measured_on: on(b['measured_on'], 'baseline.measured_on') } : {}) },
    ...(inp['causes'] !== undefined
      ? {
          causes: arr(inp['causes'], 'causes').map((c, i) => {
            const o = obj(c, `causes[${i}]`);
            return { window: uint(o['window'], 'causes[].window'), cause: str(o['cause'], 'causes[].cause'), ...(o['evidence'] !== undefined ? { evidence: str(o['evidence'], 'causes[].evidence') } : {}) };
          }),
        }
      : {}),
  };
}

/** Each window's finding kind, in order, or the refusal. */
async function windowKinds(impl: Implementation, inp: JsonObject): Promise<string[] | { error: string }> {
  const r = await refusal(async () => {
    const ws = (await impl._call('dynamism.windows', windowsArgs(inp))).get('windows');
    if (!Array.isArray(ws)) throw new Error('dynamism.windows answered no windows array');
    return { kinds: ws.map((w) => String((w as Map<string, unknown>).get('kind'))) };
  });
  return typeof r['error'] === 'string' ? { error: r['error'] } : (r['kinds'] as string[]);
}

/** A request every reading judges (declared baseline, no cause): each window's finding as answered. */
async function dynamismWindows(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const k = await windowKinds(impl, inp);
  return Array.isArray(k) ? { windows: k } : k;
}

/**
 * An undeclared baseline (jcp §5.4 "An undeclared baseline is inapplicable"; jcp.md: or refused): per window, whether
 * the baseline was applied to it (any finding but inapplicable); a refusal applies it nowhere.
 */
async function dynamismUndeclared(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const n = arr(inp['windows'], 'windows').length;
  const k = await windowKinds(impl, inp);
  return { applied: Array.isArray(k) ? k.map((x) => x !== 'inapplicable') : Array.from({ length: n }, () => false) };
}

/**
 * Named causes (jcp §5.4 "A cause explains a deviation only with evidence"): for each window that no cause names with
 * evidence, whether it reads explained. A window a cause names with evidence is left out (it may read explained or
 * unexplained: an implementation may ask more of the reading than its id). Where some cause lacks evidence the request
 * may be refused (jcp.md), which explains nothing; a request whose every cause carries evidence is judged, so its
 * refusal is reported as one.
 */
async function dynamismCauses(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const causes = arr(inp['causes'], 'causes').map((c, i) => obj(c, `causes[${i}]`));
  const evidenced = new Set(causes.filter((c) => c['evidence'] !== undefined).map((c) => c['window']));
  const bare = causes.some((c) => c['evidence'] === undefined);
  const n = arr(inp['windows'], 'windows').length;
  const k = await windowKinds(impl, inp);
  if (!Array.isArray(k) && !bare) return k;
  const out: Json[] = [];
  for (let i = 0; i < n; i++) if (!evidenced.has(i)) out.push({ window: i, explained: Array.isArray(k) ? k[i] === 'explained' : false });
  return { windows: out };
}

/**
 * dynamism.shape (jcp §5.6): the finding where the declaration is judged against the observation (refuted,
 * not-refuted, or any other answer as given); `{judged: false}` where it is not (not-in-advance, or refused: jcp.md
 * lets a testee refuse a late declaration).
 */
async function dynamismShape(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await refusal(async () => {
    const f = (await impl._call('dynamism.shape', { declared: str(inp['declared'], 'declared'), declared_at_ns: uint(inp['declared_at_ns'], 'declared_at_ns'), observed: str(inp['observed'], 'observed'), observed_from_ns: uint(inp['observed_from_ns'], 'observed_from_ns') })).get('finding');
    return { finding: String(f) };
  });
  return 'error' in r || r['finding'] === 'not-in-advance' ? { judged: false } : r;
}

// ---- jcp:P-INFLIGHT (jcp §4.11) ---------------------------------------------------------------------------------

/**
 * A durable record script (jcp §4.11) on a fresh record of the executor's own (a temporary file): a root grant minted
 * through the testee, then the ops in order — `open` (as a holder), `decide` (a request under the grant; its entry
 * kept), `complete` (an outcome recorded for an earlier decision), `status`, `close`. Reports each decision's verdict
 * and each status as answered (not the holder it names). A decision with no entry cannot be asked after: the optional
 * operations are then unimplemented.
 */
async function inflightScript(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const g = obj(inp['grant'], 'grant');
  const issuer = hex(inp['issuer_seed'], 'issuer_seed');
  const minted = await impl.mintGrant(issuer, {
    subject: str(g['subject'], 'grant.subject'),
    resource: str(g['resource'], 'grant.resource'),
    actions: arr(g['actions'], 'grant.actions').map((a) => str(a, 'grant.actions[]')),
    budget_uj: uint(g['budget_uj'], 'grant.budget_uj'),
    nonce: hex(g['nonce'], 'grant.nonce'),
  });
  const steward = hex(inp['steward_seed'], 'steward_seed');
  const caller = str(inp['caller'], 'caller');
  const dir = mkdtempSync(join(tmpdir(), 'jcp-vectors-inflight-'));
  const file = join(dir, 'record');
  let point: DurablePointHandle | undefined;
  const entries: (string | undefined)[] = [];
  const out: Json[] = [];
  const open = (): DurablePointHandle => {
    if (!point) throw new Error('vector op on a closed record');
    return point;
  };
  const entryOf = (v: Json | undefined, op: string): string => {
    const e = entries[Number(uint(v, `${op}.decision`))];
    if (e === undefined) throw new UnimplementedError(op, 'durable.decide named no entry, so no decision can be asked after');
    return e;
  };
  try {
    for (const [i, x] of arr(inp['ops'], 'ops').entries()) {
      const op = obj(x, `ops[${i}]`);
      if (op['open'] !== undefined) point = await impl.openDurable(file, str(op['open'], 'open'), steward);
      else if (op['close'] !== undefined) {
        await open().close();
        point = undefined;
      } else if (op['decide'] !== undefined) {
        const o = obj(op['decide'], `ops[${i}].decide`);
        const d = await open().decide({
          frame: { kind: 'tool-call', trust: 'control', grant_id: minted.grant_id, action: 'call', resource: str(g['resource'], 'grant.resource'), payload_hash: str(o['payload_hash'], 'decide.payload_hash') },
          chain: [minted.signed_grant],
          caller,
          cost: { uj: uint(o['uj'], 'decide.uj'), provenance: 'Estimator' },
          now_s: uint(inp['now_s'], 'now_s'),
        });
        entries.push(d.entry);
        out.push({ decide: verdictOf(d) });
      } else if (op['complete'] !== undefined) {
        const o = obj(op['complete'], `ops[${i}].complete`);
        await open().complete(entryOf(o['decision'], 'durable.complete'), str(o['outcome'], 'complete.outcome') as 'completed' | 'failed');
      } else {
        const s = await open().status(entryOf(obj(op['status'], `ops[${i}].status`)['decision'], 'durable.status'));
        out.push({ status: String(s.status) });
      }
    }
  } finally {
    if (point) await refused(() => point!.close());
    rmSync(dir, { recursive: true, force: true });
  }
  return { ops: out };
}

// ---- jcp:P-TRACE (jcp §5, §5.5, §5.6) ---------------------------------------------------------------------------

/** energy.plausibility (jcp §5): whether the counter is reported as one that overran (counter-over-rate). */
async function traceUnjudgeable(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const t = obj(inp['telemetry'], 'telemetry');
  const v = await impl.energyPlausibility(uint(inp['delta_uj'], 'delta_uj'), uint(inp['duration_ns'], 'duration_ns'), {
    draw_mw: arr(t['draw_mw'], 'telemetry.draw_mw').map((d) => uint(d, 'telemetry.draw_mw[]')),
    ...(t['limit_mw'] !== undefined ? { limit_mw: uint(t['limit_mw'], 'telemetry.limit_mw') } : {}),
  });
  return { overran: v['verdict'] === 'counter-over-rate' };
}

/** energy.conservation-floor (jcp §5.5): what the floor rests on, as answered (the floor's fraction is not reported). */
async function traceFloorBasis(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl.energyConservationFloor(uint(inp['budget_uj'], 'budget_uj'), arr(inp['provenances'], 'provenances').map((p) => str(p, 'provenances[]')));
  return { rests_on: String(r['rests_on']) };
}

/** energy.physical-bound (jcp §5.6): the finding, as answered. */
async function tracePhysicalBound(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  return { finding: await impl.energyPhysicalBound(uint(inp['energy_uj'], 'energy_uj'), uint(inp['duration_ns'], 'duration_ns'), uint(inp['floor_mw'], 'floor_mw'), uint(inp['ceiling_mw'], 'ceiling_mw')) };
}

/** Each kind's executor (vectors/p-execute.ts turns a refusal into { error: code }). */
export const JCP_RUN: Readonly<Record<Kind, KindExecutor>> = {
  PropagationAudit: propagationAudit,
  PropagationPath: propagationPath,
  DynamismWindows: dynamismWindows,
  DynamismUndeclared: dynamismUndeclared,
  DynamismCauses: dynamismCauses,
  DynamismShape: dynamismShape,
  InflightScript: inflightScript,
  TraceUnjudgeable: traceUnjudgeable,
  TraceFloorBasis: traceFloorBasis,
  TracePhysicalBound: tracePhysicalBound,
};
