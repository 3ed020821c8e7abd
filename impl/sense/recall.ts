// sense §6: the synthesis cascade. Retrieval is BM25-lite over exact integer term frequencies, then source-stratified
// recency fill for any empty slots; the envelope (spans + projection + query) is content-addressed. A Tier-0 stage
// answers a small set of factual-recall intents from the envelope's spans with no model call and an honest zero
// estimate; anything else escalates to the fallback, the last resort.
//
// The suite's readings (the spec names the method, not its formulas):
// - tokens: the line or query lower-cased (ASCII) and split on every character outside [a-z0-9];
// - BM25-lite score of a span: Σ over distinct query terms t of sat(tf) · idf(t), where tf is the exact integer count
//   of t in the span, sat(tf) = ⌊SCALE_PPM · tf · (k1 + 1) / (tf + k1)⌋ with k1 = 6/5 and no length normalisation,
//   and idf(t) = N − df(t) + 1 (a log-free inverse document frequency in integers); spans scoring 0 are not retrieved;
//   ties go to the later stamp;
// - recency fill: source classes ordered by their newest span (newest first), then round-robin over them, each turn
//   taking the class's newest span not yet in the envelope;
// - Tier-0 intents, each answered only when the query names it AND the envelope holds a span of its class:
//   last_command (query has "last"/"previous"/"latest" and "command"/"ran") ← the newest shell span;
//   recent_files (query has "file"/"files" and "recent"/"recently"/"changed"/"edited"/"modified") ← every file_change
//   span, newest first; surfaced (query has "surfaced") ← every salience span, newest first; an answer is its spans'
//   lines joined by "\n".
import { encodeCanonical } from '../cbor/index.ts';
import { makeEnergy, type Energy } from '../energy/energy.ts';
import { JcpError } from '../errors.ts';
import { contentIdOfBytes } from '../jcp/content-id.ts';
import { _text, _uint } from './_read.ts';
import { eventId, type Event, type SourceClass } from './event.ts';
import { compareHlc } from './hlc.ts';
import { project, SCALE_PPM, type Projection } from './salience.ts';

/** BM25 k1 = NUM/DEN. */
export const BM25_K1_NUM = 6n;
export const BM25_K1_DEN = 5n;

/** The tokens of a line or query. */
export function tokenize(s: string): string[] {
  return s.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 0);
}

function termFrequencies(s: string): Map<string, bigint> {
  const tf = new Map<string, bigint>();
  for (const t of tokenize(s)) tf.set(t, (tf.get(t) ?? 0n) + 1n);
  return tf;
}

/** The BM25-lite score of every event against `query` (same order as `events`). */
export function bm25Scores(events: readonly Event[], query: string): bigint[] {
  const docs = events.map((e) => termFrequencies(e.line));
  const n = BigInt(docs.length);
  const terms = [...new Set(tokenize(query))];
  const df = new Map(terms.map((t) => [t, BigInt(docs.filter((d) => d.has(t)).length)] as const));
  return docs.map((d) => {
    let score = 0n;
    for (const t of terms) {
      const tf = d.get(t) ?? 0n;
      if (tf === 0n) continue;
      const sat = (SCALE_PPM * tf * (BM25_K1_NUM + BM25_K1_DEN)) / (tf * BM25_K1_DEN + BM25_K1_NUM);
      score += sat * (n - df.get(t)! + 1n);
    }
    return score;
  });
}

const newestFirst = (a: Event, b: Event): number => compareHlc(b.hlc, a.hlc);

/** sense §6: the top-`k` spans — BM25-lite hits, then source-stratified recency fill. */
export function retrieve(events: readonly Event[], query: string, k: number): Event[] {
  const scores = bm25Scores(events, query);
  const hits = events
    .map((e, i) => ({ e, s: scores[i]! }))
    .filter((x) => x.s > 0n)
    .sort((a, b) => (a.s === b.s ? newestFirst(a.e, b.e) : a.s > b.s ? -1 : 1))
    .slice(0, k)
    .map((x) => x.e);
  // sense §6: "then source-stratified recency fill for any empty slots"
  const chosen = new Set(hits);
  const byClass = new Map<SourceClass, Event[]>();
  for (const e of [...events].sort(newestFirst)) if (!chosen.has(e)) byClass.set(e.source, [...(byClass.get(e.source) ?? []), e]);
  const queues = [...byClass.values()]; // insertion order is newest-span-first
  const out = [...hits];
  while (out.length < k && queues.some((q) => q.length > 0)) {
    for (const q of queues) if (out.length < k && q.length > 0) out.push(q.shift()!);
  }
  return out;
}

/** sense §6: the envelope — the retrieved spans, the salience projection, the query. */
export interface Envelope {
  readonly query: string;
  readonly spans: readonly Event[];
  readonly projection: Projection;
}

/** The envelope's content address: blake3 of canonical {query, spans: [event ids], projection}. Same log + query, same id. */
export function envelopeId(env: Envelope): string {
  return contentIdOfBytes(
    encodeCanonical({
      query: env.query,
      spans: env.spans.map(eventId),
      projection: { salience: env.projection.salience, novelty: env.projection.novelty, uncertainty: env.projection.uncertainty },
    }),
  );
}

/** Builds the envelope of `query` over `events` (the log, clock order) with `k` slots. */
export function buildEnvelope(events: readonly Event[], query: string, k: number): Envelope {
  const q = _text(query, 'query', 'ERR_BAD_ARGUMENT');
  const slots = Number(_uint(k, 'k', 'ERR_BAD_ARGUMENT', 1024n));
  const proj = project(events).at(-1) ?? { salience: 0n, novelty: 0n, uncertainty: 0n };
  return Object.freeze({ query: q, spans: retrieve(events, q, slots), projection: proj });
}

/** The Tier-0 intents. */
export const RECALL_INTENTS = ['last_command', 'recent_files', 'surfaced'] as const;
/** A Tier-0 intent. */
export type RecallIntent = (typeof RECALL_INTENTS)[number];

const has = (q: Set<string>, words: readonly string[]): boolean => words.some((w) => q.has(w));

/** The intent the query names (query-side evidence only), or undefined. */
export function queryIntent(query: string): RecallIntent | undefined {
  const q = new Set(tokenize(query));
  if (has(q, ['last', 'previous', 'latest']) && has(q, ['command', 'ran'])) return 'last_command';
  if (has(q, ['file', 'files']) && has(q, ['recent', 'recently', 'changed', 'edited', 'modified'])) return 'recent_files';
  if (q.has('surfaced')) return 'surfaced';
  return undefined;
}

const INTENT_SOURCE: Record<RecallIntent, SourceClass> = { last_command: 'shell', recent_files: 'file_change', surfaced: 'salience' };

/** What a fallback (typically a frontier model) returns. */
export interface FallbackAnswer {
  readonly answer: string;
  readonly energy: Energy;
}

/** The answer of the cascade. */
export interface CascadeAnswer {
  readonly tier: 'tier0' | 'fallback';
  readonly intent?: RecallIntent;
  readonly answer: string;
  /** Spans the answer rests on (Tier 0), or every span handed to the fallback. */
  readonly spans: readonly Event[];
  readonly model_calls: number;
  readonly energy: Energy;
  readonly envelope_id: string;
}

/** sense §6: a deterministic answer "is an honest zero estimate, never a measurement". */
export const TIER0_ENERGY: Energy = makeEnergy({ estimated_uj: 0n, provenance: 'Estimator', obtained: { how: 'constant' } });

/** The Tier-0 answer of `env`, or undefined when query-side and span-side evidence do not agree. */
export function tier0(env: Envelope): { intent: RecallIntent; spans: Event[]; answer: string } | undefined {
  const intent = queryIntent(env.query);
  if (intent === undefined) return undefined;
  const spans = env.spans.filter((e) => e.source === INTENT_SOURCE[intent]).sort(newestFirst);
  // sense §6: "it answers only when query-side and span-side evidence agree, and escalates when unsure"
  if (spans.length === 0) return undefined;
  const used = intent === 'last_command' ? spans.slice(0, 1) : spans;
  return { intent, spans: used, answer: used.map((e) => e.line).join('\n') };
}

/**
 * sense §6: the cascade — Tier 0 first, with no model call; the fallback only when Tier 0 cannot answer.
 * The fallback's figure is its own (it must be an honest Energy; it is not re-graded here).
 */
export function ask(events: readonly Event[], query: string, k: number, fallback: (env: Envelope) => FallbackAnswer): CascadeAnswer {
  const env = buildEnvelope(events, query, k);
  const envelope_id = envelopeId(env);
  const t0 = tier0(env);
  // sense §6: "answers directly from the envelope's spans, with no model call"
  if (t0) return Object.freeze({ tier: 'tier0', intent: t0.intent, answer: t0.answer, spans: t0.spans, model_calls: 0, energy: TIER0_ENERGY, envelope_id });
  // sense §6: "Only when no cheap stage answers does the request reach the fallback"
  const fb = fallback(env);
  if (typeof fb?.answer !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'the fallback must return an answer text');
  return Object.freeze({ tier: 'fallback', answer: fb.answer, spans: env.spans, model_calls: 1, energy: fb.energy, envelope_id });
}
