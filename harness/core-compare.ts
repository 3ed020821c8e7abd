// What a receipt core of the implementation under test and the reference's must agree on, where a test compares the
// two whole. jcp §8.1: "A receipt sealed for a multi-hop chain MUST additionally record chain_ids — every grant id the
// decision debited, root first". For a single grant the spec neither requires nor forbids the field, and the only list
// it can then hold is the grant's own id: a core whose chain_ids is exactly [grant_id] reads as one without them.
// A wrong list is left as it is, so it still differs from the reference's.

/** `core` with a chain_ids of exactly [grant_id] left out (jcp §8.1); any other core as it is. */
export function comparableCore<T extends object>(core: T): T {
  const c = core as Record<string, unknown>;
  const ids = c['chain_ids'];
  if (!Array.isArray(ids) || ids.length !== 1 || ids[0] !== c['grant_id']) return core;
  return Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'chain_ids')) as T;
}
