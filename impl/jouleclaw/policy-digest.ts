// policy_digest (jouleclaw §10.1): BLAKE3 over a length-prefixed, order-keeping preimage of a policy's rules.
//
// The preimage, exactly as §10.1 writes it:
//   "jouleclaw.policy/1" || rule_count(8, BE) || per rule:
//     len(name) || name
//     "allow" | "deny"
//     "agents:any" | "agents:one_of" || count(8, BE) || (len||id)*            [ids SORTED]
//     "action:filesystem" || len(path_glob) || path_glob || count || (len||mode_tag)*
//   | "action:network"    || len(host_glob) || host_glob || from(2,BE) || to(2,BE) || count || (len||method_tag)*
//   | "action:process"    || len(binary_glob) || binary_glob
//
// Readings taken where §10.1 does not write a width or an order out (the suite's choices):
//  - every `len` is the UTF-8 byte length as 8 bytes big-endian, the width §10.1 gives rule_count and count(8, BE);
//  - the bare `count` of modes and methods is also 8 bytes big-endian;
//  - "[ids SORTED]" is ascending bytewise order of the ids' UTF-8 bytes (Rust's String order), duplicates kept;
//  - the literal tags ("jouleclaw.policy/1", "allow", "agents:any", "action:network", …) are their ASCII bytes with
//    no length prefix, as written; text is UTF-8.
import { toHex } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import type { Policy, PolicyRule } from './policy.ts';

/** The domain prefix of the preimage (jouleclaw §10.1). */
export const POLICY_DIGEST_PREFIX = 'jouleclaw.policy/1';

const _utf8 = new TextEncoder();

/** Accumulates the preimage's parts. */
class _Preimage {
  readonly parts: Uint8Array[] = [];
  /** A literal tag, unprefixed. */
  raw(s: string): void {
    this.parts.push(_utf8.encode(s));
  }
  /** An unsigned integer as `width` big-endian bytes. */
  uint(n: number | bigint, width: 2 | 8): void {
    const b = new Uint8Array(width);
    let v = BigInt(n);
    for (let i = width - 1; i >= 0; i--) {
      b[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    this.parts.push(b);
  }
  /** len(8, BE) || UTF-8 bytes. */
  text(s: string): void {
    const b = _utf8.encode(s);
    this.uint(b.length, 8);
    this.parts.push(b);
  }
  /** count(8, BE) || (len || item)*. */
  list(items: readonly string[]): void {
    this.uint(items.length, 8);
    for (const s of items) this.text(s);
  }
  bytes(): Uint8Array {
    let n = 0;
    for (const p of this.parts) n += p.length;
    const out = new Uint8Array(n);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

/** Ascending bytewise order of UTF-8 encodings (not JavaScript's UTF-16 code-unit order). */
function _compareUtf8(a: string, b: string): number {
  const x = _utf8.encode(a);
  const y = _utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function _rule(p: _Preimage, r: PolicyRule): void {
  p.text(r.name);
  p.raw(r.effect === 'allow' ? 'allow' : 'deny');
  if (r.agents.kind === 'any') p.raw('agents:any');
  else {
    p.raw('agents:one_of');
    // jouleclaw §10.1: "The agent list is sorted before hashing."
    p.list([...r.agents.ids].sort(_compareUtf8));
  }
  const a = r.action;
  if (a.kind === 'filesystem') {
    p.raw('action:filesystem');
    p.text(a.path_glob);
    p.list(a.modes);
  } else if (a.kind === 'network') {
    p.raw('action:network');
    p.text(a.host_glob);
    // jouleclaw §10.1: "A port range is hashed as written, not normalised."
    p.uint(a.from, 2);
    p.uint(a.to, 2);
    p.list(a.methods);
  } else {
    p.raw('action:process');
    p.text(a.binary_glob);
  }
}

/**
 * The §10.1 preimage of a policy's rules, in rule order ("Rule order is included"). The version is not part of it
 * ("version is excluded from the digest").
 */
export function policyDigestPreimage(policy: Pick<Policy, 'rules'>): Uint8Array {
  const p = new _Preimage();
  p.raw(POLICY_DIGEST_PREFIX);
  p.uint(policy.rules.length, 8);
  for (const r of policy.rules) _rule(p, r);
  return p.bytes();
}

/** policy_digest (jouleclaw §10.1): the lower-case hex BLAKE3 of {@link policyDigestPreimage}. */
export function policyDigest(policy: Pick<Policy, 'rules'>): string {
  return toHex(blake3(policyDigestPreimage(policy)));
}
