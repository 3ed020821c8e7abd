// sense (sense-SPEC.md): the ambient-context substrate's reference — events and their ids (§2, §3), the HLC and the
// replay digest (§3), the salience projection (§4), highlights and the attention gate (§5), the synthesis cascade (§6),
// the sealed surfacing log (§8) and injected observations (§11).
export * from './event.ts';
export * from './hlc.ts';
export * from './log.ts';
export * from './salience.ts';
export * from './highlight.ts';
export * from './attention.ts';
export * from './recall.ts';
export * from './chain.ts';
export * from './inject.ts';
