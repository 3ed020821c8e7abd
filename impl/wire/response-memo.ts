// jcp §11 "The endpoint MUST remember every request it decided while that request's stamp is inside the window,
// together with its response": the in-memory gate's store of responses. Responses are grouped by the second they were
// decided (one group per second of the endpoint's clock) and copied into slabs the group owns, so remembering one
// costs a key and a view into a slab rather than an object, a bigint and an ArrayBuffer of its own per request, and a
// group leaves whole once every request in it is past the window.

/** The first slab of a group; each next one doubles, up to {@link MAX_SLAB}. */
const FIRST_SLAB = 4096;
const MAX_SLAB = 1 << 20;

interface Group {
  readonly decided_s: bigint;
  readonly keys: string[];
  slab: Uint8Array;
  used: number;
}

/** Responses by request key, kept while their group is young enough. */
export interface ResponseMemo {
  /** How many responses are remembered now. */
  readonly size: number;
  /** The response remembered for `key` (a view of memory the memo owns: read it, do not keep or change it). */
  get(key: string): Uint8Array | undefined;
  /** Remembers a copy of `response` for a key not remembered yet, decided at `decided_s`. */
  set(key: string, response: Uint8Array, decided_s: bigint): void;
  /** Forgets every response decided before `now_s − keep_s`; cheap when called again within one second. */
  prune(now_s: bigint, keep_s: bigint): void;
}

export function createResponseMemo(): ResponseMemo {
  const index = new Map<string, Uint8Array>();
  const groups = new Map<bigint, Group>();
  let current: Group | undefined;
  let pruned_s: bigint | undefined;

  function groupOf(decided_s: bigint): Group {
    if (current !== undefined && current.decided_s === decided_s) return current;
    let g = groups.get(decided_s);
    if (g === undefined) {
      g = { decided_s, keys: [], slab: new Uint8Array(FIRST_SLAB), used: 0 };
      groups.set(decided_s, g);
    }
    current = g;
    return g;
  }

  return {
    get size() {
      return index.size;
    },
    get: (key) => index.get(key),
    set(key, response, decided_s) {
      const g = groupOf(decided_s);
      const n = response.length;
      if (g.used + n > g.slab.length) {
        // the full slab stays alive through the views into it; the group's next responses go to a new one
        g.slab = new Uint8Array(Math.max(n, Math.min(g.slab.length * 2, MAX_SLAB)));
        g.used = 0;
      }
      g.slab.set(response, g.used);
      index.set(key, g.slab.subarray(g.used, g.used + n));
      g.used += n;
      g.keys.push(key);
    },
    prune(now_s, keep_s) {
      if (now_s === pruned_s) return;
      pruned_s = now_s;
      for (const [s, g] of groups) {
        if (s + keep_s >= now_s) continue;
        for (const k of g.keys) index.delete(k);
        groups.delete(s);
        if (current === g) current = undefined;
      }
    },
  };
}
