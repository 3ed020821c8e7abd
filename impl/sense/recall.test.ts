// Unit tests of sense §6 (impl/sense/recall.ts): BM25-lite over exact integer term frequencies, source-stratified
// recency fill, a content-addressed envelope, and the cascade — Tier 0 with no model call and an honest zero estimate,
// escalation otherwise.
import { describe, expect, it } from 'vitest';
import { lazy, thrown } from '../_test-support.ts';
import { ask, bm25Scores, buildEnvelope, envelopeId, queryIntent, retrieve, TIER0_ENERGY, tokenize, type Envelope, type FallbackAnswer } from './recall.ts';
import { makeEnergy } from '../energy/energy.ts';
import { eventId, makeEvent, payloadCid, type Event } from './event.ts';
import { makeHlc } from './hlc.ts';

const utf8 = new TextEncoder();
const e = (t: bigint, source: string, line: string): Event => makeEvent({ hlc: makeHlc(t, 0n), source, trust: 'FirstParty', payload: payloadCid(utf8.encode(line)), line });

// built by the first test that reads it (lazy): built at import, the event code would run outside every test
const LOG: Event[] = lazy(() => [
  e(1n, 'file_change', 'modified src/main.ts'),
  e(2n, 'shell', 'npm test'),
  e(3n, 'app_focus', 'focused editor'),
  e(4n, 'file_change', 'modified README.md'),
  e(5n, 'shell', 'git status'),
  e(6n, 'salience', 'surfaced: build failing'),
], []);

function counting(): { calls: number; fb: (env: Envelope) => FallbackAnswer } {
  const o = { calls: 0, fb: (_env: Envelope): FallbackAnswer => (o.calls++, { answer: 'model says', energy: makeEnergy({ estimated_uj: 5n, provenance: 'Estimator', obtained: { how: 'constant' } }) }) };
  return o;
}

describe('sense §6 retrieval', () => {
  it('tokenizes case-insensitively on non-alphanumerics', () => {
    expect(tokenize('Modified src/Main.ts!!')).toEqual(['modified', 'src', 'main', 'ts']);
  });

  it('scores by saturated integer term frequency times a log-free idf', () => {
    // "modified" appears in 2 of 6 spans: idf = 6 − 2 + 1 = 5; tf = 1: sat = ⌊1e6 · 1 · 11/5 / (1 + 6/5)⌋ = 1e6
    const s = bm25Scores(LOG, 'modified');
    expect(s).toEqual([5_000_000n, 0n, 0n, 5_000_000n, 0n, 0n]);
    // tf = 2 saturates: ⌊1e6 · 2 · 11 / (10 + 6)⌋ = 1 375 000, idf 1 (the only span, of one)
    expect(bm25Scores([e(1n, 'shell', 'make make')], 'make')).toEqual([1_375_000n]);
  });

  it('hits first (ties to the newest), then source-stratified recency fill', () => {
    expect(retrieve(LOG, 'modified', 2).map((x) => x.line)).toEqual(['modified README.md', 'modified src/main.ts']);
    // no token overlap: one of each class, classes ordered by their newest span
    expect(retrieve(LOG, 'what happened', 4).map((x) => x.line)).toEqual(['surfaced: build failing', 'git status', 'modified README.md', 'focused editor']);
    expect(retrieve(LOG, 'what happened', 6).map((x) => x.line).slice(4)).toEqual(['npm test', 'modified src/main.ts']);
  });

  it('k caps the hits', () => {
    expect(retrieve(LOG, 'modified', 1).map((x) => x.line)).toEqual(['modified README.md']);
  });

  it('hits rank by score before recency', () => {
    // tf 3, 2, 1 of "make": sat = 1 571 428, 1 375 000, 1 000 000 (idf 1 each); the newest span scores least
    const log = [e(1n, 'shell', 'make make'), e(2n, 'shell', 'make make make'), e(3n, 'shell', 'make')];
    expect(retrieve(log, 'make', 3).map((x) => x.line)).toEqual(['make make make', 'make make', 'make']);
  });

  it('a span scoring zero is no hit: the slots fill by source class, not by recency alone', () => {
    // sense §6: "then source-stratified recency fill for any empty slots"
    const log = [e(1n, 'file_change', 'saved notes'), e(2n, 'shell', 'ls'), e(3n, 'shell', 'pwd')];
    expect(retrieve(log, 'weather', 2).map((x) => x.line)).toEqual(['pwd', 'saved notes']);
  });

  it('the envelope carries the projection after the last event', () => {
    // sense §6: the envelope is "the top-k retrieved spans + the salience projection + the query"
    expect(buildEnvelope(LOG, 'status', 3).projection).toEqual({ salience: 166_666n, novelty: 833_333n, uncertainty: 0n });
  });

  it('the envelope of an empty log projects zero', () => {
    expect(buildEnvelope([], 'status', 3).projection).toEqual({ salience: 0n, novelty: 0n, uncertainty: 0n });
  });

  it('the envelope address binds the projection', () => {
    const env = buildEnvelope(LOG, 'status', 3);
    expect(envelopeId({ ...env, projection: { ...env.projection, salience: env.projection.salience + 1n } })).not.toBe(envelopeId(env));
  });

  it('refuses a query that is no text or a k over 1024, naming it', () => {
    for (const [query, k, what] of [
      [5, 3, 'query'],
      ['status', 1025, 'k'],
    ] as const) {
      const err = thrown(() => buildEnvelope(LOG, query as never, k));
      expect(err.code).toBe('ERR_BAD_ARGUMENT');
      expect(err.detail).toEqual({ what });
    }
  });

  it('the envelope of the same log and query is byte-identical; another query is another envelope', () => {
    expect(envelopeId(buildEnvelope(LOG, 'status', 3))).toBe(envelopeId(buildEnvelope([...LOG], 'status', 3)));
    expect(envelopeId(buildEnvelope(LOG, 'status', 3))).not.toBe(envelopeId(buildEnvelope(LOG, 'status?', 3)));
  });
});

describe('sense §6 cascade', () => {
  it('recognises the recall intents from the query', () => {
    expect(queryIntent('what was the last command I ran?')).toBe('last_command');
    expect(queryIntent('which files changed recently')).toBe('recent_files');
    expect(queryIntent('what was surfaced today')).toBe('surfaced');
    expect(queryIntent('why is the build slow?')).toBeUndefined();
  });

  it('a recall intent needs a word of each of its two groups', () => {
    for (const q of ['last command', 'previous command', 'latest command', 'the last thing I ran']) expect(queryIntent(q), q).toBe('last_command');
    for (const q of ['recent file', 'files recently', 'file changed', 'file edited', 'file modified']) expect(queryIntent(q), q).toBe('recent_files');
    for (const q of ['last week', 'the command line', 'recent news', 'open the file']) expect(queryIntent(q), q).toBeUndefined();
  });

  it('the last command is the newest shell span in the envelope, not the best-scoring one', () => {
    // "npm" makes "npm test" the top hit; "git status" is newer
    expect(ask(LOG, 'last command npm', 6, counting().fb)).toMatchObject({ tier: 'tier0', answer: 'git status' });
  });

  it('refuses a fallback that returns no answer text', () => {
    for (const bad of [undefined, { answer: 5 }]) {
      const err = thrown(() => ask(LOG, 'why is the build slow?', 4, () => bad as never));
      expect(err.code).toBe('ERR_BAD_ARGUMENT');
      expect(err.message).toContain('the fallback must return an answer text');
    }
  });

  it('answers a recall query at Tier 0 with no model call and an honest zero estimate', () => {
    const c = counting();
    const r = ask(LOG, 'what was the last command I ran?', 4, c.fb);
    expect(r).toMatchObject({ tier: 'tier0', intent: 'last_command', answer: 'git status', model_calls: 0 });
    expect(r.spans.map(eventId)).toEqual([eventId(LOG[4]!)]);
    expect(c.calls).toBe(0);
    expect(r.energy).toEqual({ estimated_uj: 0n, provenance: 'Estimator', coverage: 'Whole' });
    expect(r.energy).toBe(TIER0_ENERGY);
    expect(ask(LOG, 'recent files changed', 6, c.fb).answer).toBe('modified README.md\nmodified src/main.ts');
    expect(c.calls).toBe(0);
  });

  it('escalates an open-ended query, and a recall query whose spans do not agree', () => {
    const c = counting();
    expect(ask(LOG, 'why is the build slow?', 4, c.fb)).toMatchObject({ tier: 'fallback', answer: 'model says', model_calls: 1 });
    expect(c.calls).toBe(1);
    // no shell span anywhere: query-side evidence alone is not enough
    expect(ask(LOG.filter((x) => x.source !== 'shell'), 'last command?', 6, c.fb).tier).toBe('fallback');
    expect(c.calls).toBe(2);
  });
});
