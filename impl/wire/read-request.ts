// jcp §11: a one-pass reader of a WireRequest body in its one expected shape, for the endpoint's hot path: the six
// fields in canonical key order, each value in its canonical form, every chain link one whose exact bytes the strict
// path accepted before (impl/wire/grant-memo.ts). It accepts only bodies that the strict path (decodeCanonical, then
// parseWireRequest) accepts, with an equal request; for everything else — an unseen link, non-ASCII text, a head
// longer than needed, a field out of place — it answers undefined and decodeWireRequest runs the strict path, which
// names the fault. So it never refuses anything itself. impl/wire/codec.test.ts checks the two agree over mutated and
// random requests.
import { asciiBytes, OFF_SHAPE, ShapeCursor, shapeTexts } from '../cbor/cursor.ts';
import { PROVENANCES, type Cost } from '../energy/cost.ts';
import { FRAME_KINDS, type Frame, type SignedGrant } from '../jcp/types.ts';
import type { WireRequest } from './codec.ts';
import { knownLinkAt } from './grant-memo.ts';

// the keys, each under 24 bytes (a one-byte text head), in the order jcp §3 "length-first then bytewise" puts them
const K_NOW = asciiBytes('now');
const K_COST = asciiBytes('cost');
const K_CHAIN = asciiBytes('chain');
const K_FRAME = asciiBytes('frame');
const K_CALLER = asciiBytes('caller');
const K_SIGNATURE = asciiBytes('signature');
const K_UJ = asciiBytes('uj');
const K_COVERAGE = asciiBytes('coverage');
const K_PROVENANCE = asciiBytes('provenance');
const K_KIND = asciiBytes('kind');
const K_MODEL = asciiBytes('model');
const K_TRUST = asciiBytes('trust');
const K_ACTION = asciiBytes('action');
const K_GRANT_ID = asciiBytes('grant_id');
const K_RESOURCE = asciiBytes('resource');
const K_PAYLOAD_HASH = asciiBytes('payload_hash');

const KINDS = shapeTexts(FRAME_KINDS);
const TRUSTS = shapeTexts(['control', 'data']);
const PROVENANCE_TEXTS = shapeTexts(PROVENANCES);
const PARTIAL = shapeTexts(['Partial']);

const c = new ShapeCursor();

/** A map head of exactly `a` or `b` entries (one-byte heads); returns the count. */
function mapHead(a: number, b: number): number {
  if (c.p >= c.end) throw OFF_SHAPE;
  const n = c.b[c.p]! - 0xa0;
  if (n !== a && n !== b) throw OFF_SHAPE;
  c.p++;
  return n;
}

/** jcp §11 cost {uj, coverage?, provenance}, as parseWireRequest builds it. */
function cost(): Cost {
  const partial = mapHead(2, 3) === 3;
  c.key(K_UJ);
  const uj = c.uint();
  if (partial) {
    c.key(K_COVERAGE);
    c.oneOf(PARTIAL);
  }
  c.key(K_PROVENANCE);
  const provenance = c.oneOf(PROVENANCE_TEXTS) as Cost['provenance'];
  return Object.freeze(partial ? { uj, provenance, coverage: 'Partial' as const } : { uj, provenance });
}

/** The chain: 1 … 23 links, each one accepted before. */
function chain(): readonly SignedGrant[] {
  if (c.p >= c.end) throw OFF_SHAPE;
  const n = c.b[c.p]! - 0x80;
  if (n < 1 || n > 23) throw OFF_SHAPE;
  c.p++;
  const links: SignedGrant[] = [];
  for (let i = 0; i < n; i++) {
    const known = knownLinkAt(c.b, c.p, c.end);
    if (known === undefined) throw OFF_SHAPE;
    links.push(known.sg);
    c.p = known.end;
  }
  return Object.freeze(links);
}

/** jcp §5 Frame, as parseFrame builds it: its keys in that order, model last when present. */
function frame(): Frame {
  const withModel = mapHead(6, 7) === 7;
  c.key(K_KIND);
  const kind = c.oneOf(KINDS) as Frame['kind'];
  let model: string | undefined;
  if (withModel) {
    c.key(K_MODEL);
    model = c.cid(true);
  }
  c.key(K_TRUST);
  const trust = c.oneOf(TRUSTS) as Frame['trust'];
  c.key(K_ACTION);
  const action = c.text(true);
  c.key(K_GRANT_ID);
  const grant_id = c.cid(true);
  c.key(K_RESOURCE);
  const resource = c.cid(true);
  c.key(K_PAYLOAD_HASH);
  const payload_hash = c.cid(false);
  const f: { -readonly [K in keyof Frame]: Frame[K] } = { kind, trust, grant_id, action, resource, payload_hash };
  if (model !== undefined) f.model = model;
  return Object.freeze(f);
}

/**
 * Reads a request body in its one expected shape (see the head of this file); undefined for anything else, including
 * anything the strict path would refuse. Never throws.
 */
export function _readKnownWireRequest(body: Uint8Array): WireRequest | undefined {
  if (!(body instanceof Uint8Array) || body.length < 2 || body[0] !== 0xa6) return undefined;
  c.begin(body);
  try {
    c.p = 1;
    c.key(K_NOW);
    const now = c.uint();
    c.key(K_COST);
    const cst = cost();
    c.key(K_CHAIN);
    const links = chain();
    c.key(K_FRAME);
    const f = frame();
    c.key(K_CALLER);
    const caller = c.did();
    c.key(K_SIGNATURE);
    if (c.bstrHead() !== 64 || c.p + 64 !== c.end) return undefined;
    const signature = body.slice(c.p, c.end);
    return Object.freeze({ frame: f, chain: links, caller, cost: cst, now, signature });
  } catch {
    // off the shape (OFF_SHAPE), or anything unforeseen: the strict path decides, and names any fault
    return undefined;
  } finally {
    c.release();
  }
}
