// The reference implementation's public surface: one import for drivers, benches and tests.
export * from './errors.ts';
export * from './bytes.ts';
export * from './cbor/index.ts';
export * from './identity/ed25519.ts';
export * from './identity/did-key.ts';
export * from './hash/blake3.ts';
export * from './energy/cost.ts';
// jcp §5, §5.1–§5.6 energy honesty (C9): pure judgements over samples
export * from './energy/energy.ts';
export * from './energy/liveness.ts';
export * from './energy/plausibility.ts';
export * from './energy/ladder.ts';
export * from './energy/outcomes.ts';
export * from './energy/tree.ts';
export * from './jcp/types.ts';
export * from './jcp/content-id.ts';
export * from './jcp/codec.ts';
export * from './jcp/grant.ts';
export * from './jcp/attenuate.ts';
export * from './jcp/revocation.ts';
export * from './jcp/decide.ts';
export * from './jcp/enforcement-point.ts';
// jcp §4.5 budget channels (C17) and §4.6 standing grants (C20)
export * from './jcp/channel.ts';
export * from './jcp/standing.ts';
// jcp §4.7 checkpoints and amendments (C21)
export * from './jcp/checkpoint.ts';
// jcp §2.1 rotation (C12), §2.2 threshold actors (C13, C18), §4.3 revocation propagation markers
export * from './identity/rotation.ts';
export * from './identity/threshold.ts';
export * from './jcp/propagation.ts';
export * from './cose/sign1.ts';
export * from './receipt/core.ts';
export * from './receipt/seal.ts';
export * from './receipt/verify.ts';
// jcp §4.11, C26: the durable decision record (one writer) and the durable enforcement point
export * from './durable/lock.ts';
export * from './durable/record.ts';
export * from './durable/entry.ts';
export * from './durable/point.ts';
// jcp §8.1 receipt-stream replay, §8.2 group accounting (C14, C16), §6.1 continuations
export * from './receipt/replay.ts';
export * from './receipt/accounting.ts';
export * from './jcp/continuation.ts';
// jcp §4.10 forwarding: open fields labelled, joined and sealed with the arguments, or not forwarded (C25)
export * from './jcp/forward.ts';
// jouleclaw §22 transparency log (C-TLOG): RFC 6962 tree over BLAKE3, signed tree heads, the append on the verdict's path
export * from './jouleclaw/tlog-merkle.ts';
export * from './jouleclaw/tlog-head.ts';
export * from './jouleclaw/tlog.ts';
// jouleclaw §8 agent identity, §9 policy engine and its line-delimited JSON transport, §10 policy_digest and policy/1 receipt
export * from './jouleclaw/identity.ts';
export * from './jouleclaw/policy.ts';
export * from './jouleclaw/policy-digest.ts';
export * from './jouleclaw/policy-receipt.ts';
export * from './jouleclaw/ldjson.ts';
// ---- jouleclaw §2/§7 cascade receipt and versioning, §16 contracts and verdict receipts, §17 handoffs and the run journal ----
export * from './jouleclaw/contract-json.ts';
export * from './jouleclaw/versioning.ts';
export * from './jouleclaw/receipt-envelope.ts';
export * from './jouleclaw/receipt.ts';
export * from './jouleclaw/contract.ts';
export * from './jouleclaw/verdict.ts';
export * from './jouleclaw/verdict-receipt.ts';
export * from './jouleclaw/handoff.ts';
export * from './jouleclaw/journal.ts';
export * from './jouleclaw/cascade.ts';
export * from './jouleclaw/retrieval.ts';
export * from './jouleclaw/orchestrator.ts';
// ---- sense §2–§11 (impl/sense), as one namespace so its names (Event, Probe, ask, …) cannot collide with jcp's ----
export * as sense from './sense/index.ts';
