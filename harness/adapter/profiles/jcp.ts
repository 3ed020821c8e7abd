// The reference's handlers for the suite-defined profiles jcp:P-PROPAGATION, jcp:P-DYNAMISM (harness/protocol/profiles/jcp.md).
import type { CborInput, CborMap, CborValue } from '../../../impl/cbor/index.ts';
import { decodeCanonical } from '../../../impl/cbor/index.ts';
import { JcpError } from '../../../impl/errors.ts';
import type { EnforcementPoint } from '../../../impl/jcp/enforcement-point.ts';
import { parseSignedGrant, parseSignedRevocation } from '../../../impl/jcp/codec.ts';
import { auditAllowAgainstRevocation } from '../../../impl/jcp/propagation.ts';
import { createRevocationFeed, MARKER_COUNTS, PROPAGATION_PATH, type RevocationFeed } from '../../../impl/jcp/revocation-feed.ts';
import { classifyWindows, judgeDeclaredShape, type Baseline, type MeasuredOn, type NamedCause, type WorkShape } from '../../../impl/jcp/dynamism.ts';
import { arg, bytes, map, text, uint } from '../args.ts';

const list = (v: CborValue | undefined, k: string): CborValue[] => {
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array`);
  return v;
};
const str = (m: CborMap, k: string, at: string): string => {
  const v = m.get(k);
  if (typeof v !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', `argument ${at}.${k} must be text`);
  return v;
};
const measuredOn = (v: CborValue | undefined, k: string): MeasuredOn => {
  const m = map(v, k);
  return { silicon: str(m, 'silicon', k), occupancy: str(m, 'occupancy', k), sampling_ns: uint(m.get('sampling_ns'), `${k}.sampling_ns`) };
};

export function jcpProfileHandlers(point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  // ---- jcp:P-PROPAGATION (jcp §4.3): the reference's revocation feeds ----
  const feeds = new Map<string, RevocationFeed>();
  let nextFeed = 0;
  const feed = (a: CborMap): RevocationFeed => {
    const id = text(a, 'feed');
    const f = feeds.get(id);
    if (!f) throw new JcpError('ERR_BAD_ARGUMENT', `unknown feed ${id}`);
    return f;
  };
  return {
    'propagation.define': () => ({ path: PROPAGATION_PATH, marker: MARKER_COUNTS }),
    'propagation.feed-new': () => {
      const id = `f${nextFeed++}`;
      feeds.set(id, createRevocationFeed());
      return { feed: id };
    },
    'propagation.issue': (a) => ({
      marker: feed(a).issue(parseSignedRevocation(decodeCanonical(bytes(a, 'revocation'))), parseSignedGrant(decodeCanonical(bytes(a, 'grant')))),
    }),
    'propagation.deliver': (a) => ({ known_through: feed(a).deliver(point(a)) }),
    'propagation.audit': (a) => {
      const m = uint(a.get('revoked_at'), 'revoked_at');
      const allows = a.get('allows');
      if (!Array.isArray(allows)) throw new JcpError('ERR_BAD_ARGUMENT', 'argument allows must be an array');
      const verdicts = allows.map((x, i) => {
        const e = map(x, `allows[${i}]`);
        const k = e.has('known_through') ? uint(e.get('known_through'), `allows[${i}].known_through`) : undefined;
        return auditAllowAgainstRevocation(m, k === undefined ? { verdict: 'allow' } : { verdict: 'allow', known_through: k });
      });
      return { verdicts };
    },
    // ---- jcp:P-DYNAMISM (jcp §5.4, §5.6) ----
    'dynamism.windows': (a) => {
      const series = measuredOn(a.get('series'), 'series');
      const windows = list(a.get('windows'), 'windows').map((x, i) => {
        const w = map(x, `windows[${i}]`);
        return { duration_ns: uint(w.get('duration_ns'), `windows[${i}].duration_ns`), uj: uint(w.get('uj'), `windows[${i}].uj`) };
      });
      const b = map(arg(a, 'baseline'), 'baseline');
      const baseline: Baseline = {
        lo_uj: uint(b.get('lo_uj'), 'baseline.lo_uj'),
        hi_uj: uint(b.get('hi_uj'), 'baseline.hi_uj'),
        ...(b.has('measured_on') ? { measured_on: measuredOn(b.get('measured_on'), 'baseline.measured_on') } : {}),
      };
      const causes = a.has('causes')
        ? list(a.get('causes'), 'causes').map((x, i): NamedCause => {
            const c = map(x, `causes[${i}]`);
            const w = uint(c.get('window'), `causes[${i}].window`);
            return { window: w > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(w), cause: str(c, 'cause', `causes[${i}]`) as NamedCause['cause'], ...(c.has('evidence') ? { evidence: str(c, 'evidence', `causes[${i}]`) } : {}) };
          })
        : [];
      return { windows: classifyWindows(series, windows, baseline, causes).map((f) => ({ ...f })) };
    },
    'dynamism.shape': (a) => ({
      finding: judgeDeclaredShape(
        text(a, 'declared') as WorkShape,
        uint(a.get('declared_at_ns'), 'declared_at_ns'),
        text(a, 'observed') as WorkShape,
        uint(a.get('observed_from_ns'), 'observed_from_ns'),
      ),
    }),
  };
}
