// sense §8: the sealed, hash-chained surfacing log. Every gate decision (§5), surface or hold, seals as the next link;
// the signed core commits to the source event's content id, its trust level, the highlight, the value/cost the budget
// computed, the decision, the joules charged and the budget left; prev is the BLAKE3 content id of the previous link's
// canonical core and seq increments from zero. verify_chain checks every signature, the sequence and every prev link,
// and reports the first break (conformance C5).
//
// Byte shapes (the suite's reading; the spec fixes the fields, sense §3 fixes canonical det-CBOR):
//   core        = { seq: uint, ? prev: cid (absent at seq 0), host: did, event_id: cid, trust: TrustLevel,
//                   highlight: { probe: Probe, score: uint }, value: uint, cost: uint,
//                   decision: "surface" / "hold:value" / "hold:budget", charged_uj: uint, budget_uj: uint }
//   signed link = { core: core, sig: bstr .size 64 }    — sig is Ed25519 by `host` over canonical(core)
//   link id     = blake3(canonical(core)), lowercase hex (the address an injected observation cites, §11)
// budget_uj is the budget left after the decision.
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { isJcpError, JcpError } from '../errors.ts';
import { didPublicKey, isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { contentIdOfBytes, isContentId } from '../jcp/content-id.ts';
import { _bytes, _oneOf, _text, _uint } from './_read.ts';
import { OUTCOMES, type Outcome } from './attention.ts';
import { TRUST_LEVELS, type TrustLevel } from './event.ts';
import { PROBES, type Probe } from './highlight.ts';

/** What a gate decision contributes to a link (seq, prev and host come from the log). */
export interface LinkFields {
  readonly event_id: string;
  readonly trust: TrustLevel;
  readonly highlight: { readonly probe: Probe; readonly score: bigint };
  readonly value: bigint;
  readonly cost: bigint;
  readonly decision: Outcome;
  readonly charged_uj: bigint;
  readonly budget_uj: bigint;
}

/** sense §8: the signed core of one link — the gate decision's fields, placed in the log by seq, prev and host. */
export interface LinkCore extends LinkFields {
  readonly seq: bigint;
  readonly prev?: string;
  readonly host: string;
}

/** A sealed link: its core and the host's signature over the core's canonical bytes. */
export interface SignedLink {
  readonly core: LinkCore;
  readonly sig: Uint8Array;
}

const CORE_FIELDS = ['seq', 'prev', 'host', 'event_id', 'trust', 'highlight', 'value', 'cost', 'decision', 'charged_uj', 'budget_uj'];
const BAD = 'ERR_SENSE_LINK_MALFORMED' as const;

/** The canonical CBOR value of a core (prev omitted at seq 0, never null). */
export function linkCoreToCbor(c: LinkCore): CborInput {
  return {
    seq: c.seq,
    ...(c.prev !== undefined ? { prev: c.prev } : {}),
    host: c.host,
    event_id: c.event_id,
    trust: c.trust,
    highlight: { probe: c.highlight.probe, score: c.highlight.score },
    value: c.value,
    cost: c.cost,
    decision: c.decision,
    charged_uj: c.charged_uj,
    budget_uj: c.budget_uj,
  };
}

/** The canonical bytes of a core: what the host signs. */
export function linkCoreBytes(c: LinkCore): Uint8Array {
  return encodeCanonical(linkCoreToCbor(c));
}

/** sense §8: a link's content id — BLAKE3 of its canonical core. */
export function linkId(c: LinkCore): string {
  return contentIdOfBytes(linkCoreBytes(c));
}

/** The canonical bytes of a signed link. */
export function signedLinkBytes(l: SignedLink): Uint8Array {
  return encodeCanonical({ core: linkCoreToCbor(l.core), sig: l.sig });
}

function mapOf(v: CborValue | undefined, allowed: readonly string[], what: string): CborMap {
  if (!(v instanceof Map)) throw new JcpError(BAD, `${what} must be a map`);
  for (const k of v.keys()) if (typeof k !== 'string' || !allowed.includes(k)) throw new JcpError(BAD, `${what} has an unknown field ${String(k)}`);
  return v;
}

/** A core from its CBOR value: ERR_SENSE_LINK_MALFORMED naming the first bad field. */
export function parseLinkCore(v: CborValue | undefined): LinkCore {
  const m = mapOf(v, CORE_FIELDS, 'core');
  const cid = (k: string): string => {
    const s = m.get(k);
    if (!isContentId(s)) throw new JcpError(BAD, `core.${k} must be a content id (64 lowercase hex digits)`);
    return s;
  };
  const host = _text(m.get('host'), 'core.host', BAD);
  if (!isDidKey(host)) throw new JcpError(BAD, 'core.host must be an Ed25519 did:key');
  const h = mapOf(m.get('highlight'), ['probe', 'score'], 'core.highlight');
  const seq = _uint(m.get('seq'), 'core.seq', BAD);
  const prev = m.has('prev') ? cid('prev') : undefined;
  if ((seq === 0n) !== (prev === undefined)) throw new JcpError(BAD, 'core.prev must be absent exactly at seq 0');
  const core: LinkCore = {
    seq,
    ...(prev !== undefined ? { prev } : {}),
    host,
    event_id: cid('event_id'),
    trust: _oneOf(m.get('trust'), TRUST_LEVELS, 'core.trust', BAD),
    highlight: Object.freeze({ probe: _oneOf(h.get('probe'), PROBES, 'core.highlight.probe', BAD), score: _uint(h.get('score'), 'core.highlight.score', BAD) }),
    value: _uint(m.get('value'), 'core.value', BAD),
    cost: _uint(m.get('cost'), 'core.cost', BAD),
    decision: _oneOf(m.get('decision'), OUTCOMES, 'core.decision', BAD),
    charged_uj: _uint(m.get('charged_uj'), 'core.charged_uj', BAD),
    budget_uj: _uint(m.get('budget_uj'), 'core.budget_uj', BAD),
  };
  // sense §5: "a hold spends nothing"
  if (core.decision !== 'surface' && core.charged_uj !== 0n) throw new JcpError(BAD, `a ${core.decision} link must charge 0 µJ, charges ${core.charged_uj}`);
  return Object.freeze(core);
}

/** A signed link from its canonical bytes: ERR_SENSE_LINK_MALFORMED (or a CBOR code) on any fault. */
export function parseSignedLink(b: Uint8Array): SignedLink {
  const m = mapOf(decodeCanonical(_bytes(b, 'link', BAD)), ['core', 'sig'], 'link');
  const sig = _bytes(m.get('sig'), 'link.sig', BAD);
  if (sig.length !== 64) throw new JcpError(BAD, `link.sig must be 64 bytes, got ${sig.length}`);
  return Object.freeze({ core: parseLinkCore(m.get('core')), sig });
}

/** True when `l.sig` is `l.core.host`'s Ed25519 signature over the core's canonical bytes. */
export function linkSignatureValid(l: SignedLink, backend: Ed25519 = defaultEd25519()): boolean {
  return backend.verify(l.sig, linkCoreBytes(l.core), didPublicKey(l.core.host));
}


/** The core `f` makes at `seq` after `prev`, as the map {@link parseLinkCore} checks (undefined fields left out, so they read as missing). */
function linkFieldsMap(f: LinkFields, seq: bigint, prev: string | undefined, host: string): CborMap {
  if (typeof f !== 'object' || f === null) throw new JcpError(BAD, 'a link needs the fields of a gate decision');
  const h = f.highlight as unknown;
  const hl = h instanceof Map ? h : typeof h === 'object' && h !== null ? new Map(Object.entries(h)) : h;
  const entries: Array<[string, unknown]> = [
    ['seq', seq],
    ['prev', prev],
    ['host', host],
    ['event_id', f.event_id],
    ['trust', f.trust],
    ['highlight', hl],
    ['value', f.value],
    ['cost', f.cost],
    ['decision', f.decision],
    ['charged_uj', f.charged_uj],
    ['budget_uj', f.budget_uj],
  ];
  return new Map(entries.filter(([, v]) => v !== undefined)) as CborMap;
}

/** A surfacing log sealing one host's decisions. */
export interface SurfacingLog {
  /** Seals `f` as the next link (sense §8: "Every gate decision (§5) therefore seals as the next link"). */
  seal(f: LinkFields): SignedLink;
  /** The links sealed so far. */
  links(): readonly SignedLink[];
}

/** A fresh surfacing log signed by `host`. */
export function createSurfacingLog(host: KeyPair, backend: Ed25519 = defaultEd25519()): SurfacingLog {
  const links: SignedLink[] = [];
  return Object.freeze({
    seal(f: LinkFields): SignedLink {
      const last = links.at(-1);
      // sense §8: "each link's prev is the BLAKE3 content id of the previous link's canonical core, and seq increments from zero"
      const core = parseLinkCore(linkFieldsMap(f, BigInt(links.length), last ? linkId(last.core) : undefined, host.did));
      const l = Object.freeze({ core, sig: backend.sign(host.seed, linkCoreBytes(core)) });
      links.push(l);
      return l;
    },
    links: () => [...links],
  });
}

/** Why a link breaks the chain. */
export type BreakReason = 'malformed' | 'host' | 'signature' | 'seq' | 'prev';

/** verify_chain's answer: n links verified; `break` is the first fault, at index n. */
export interface ChainVerdict {
  readonly n: number;
  readonly break?: { readonly index: number; readonly reason: BreakReason };
}

/**
 * sense §8 verify_chain: checks, link by link, that it parses, that it is `host`'s, its signature, its seq (= its
 * index) and its prev (= the previous core's id; absent at 0), and stops at the first break.
 */
export function verifyChain(links: readonly Uint8Array[], host: string, backend: Ed25519 = defaultEd25519()): ChainVerdict {
  if (!isDidKey(host)) throw new JcpError('ERR_DID_MALFORMED', 'verify_chain needs the host as an Ed25519 did:key');
  let prevId: string | undefined;
  for (let i = 0; i < links.length; i++) {
    const at = (reason: BreakReason): ChainVerdict => Object.freeze({ n: i, break: Object.freeze({ index: i, reason }) });
    let l: SignedLink;
    try {
      l = parseSignedLink(links[i]!);
    } catch (e) {
      if (isJcpError(e)) return at('malformed');
      throw e;
    }
    if (l.core.host !== host) return at('host');
    // sense §8: "verify_chain checks every signature, the sequence, and every prev link, and reports the first break"
    if (!linkSignatureValid(l, backend)) return at('signature');
    if (l.core.seq !== BigInt(i)) return at('seq');
    if (l.core.prev !== prevId) return at('prev');
    prevId = linkId(l.core);
  }
  return Object.freeze({ n: links.length });
}
