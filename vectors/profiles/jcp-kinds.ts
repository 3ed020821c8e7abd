// The group kinds of vectors/profiles/jcp.ts (no imports: vectors/model.ts reads this list).
/** jcp:P-PROPAGATION (§4.3), P-DYNAMISM (§5.4, §5.6), P-INFLIGHT (§4.11), P-TRACE (§5, §5.5, §5.6). */
export const JCP_PROFILE_TYPES = ['PropagationAudit', 'PropagationPath', 'DynamismWindows', 'DynamismUndeclared', 'DynamismCauses', 'DynamismShape', 'InflightScript', 'TraceUnjudgeable', 'TraceFloorBasis', 'TracePhysicalBound'] as const;
