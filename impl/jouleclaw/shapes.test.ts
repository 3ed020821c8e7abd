// jouleclaw §15: a tool input failing its SHACL shapes is refused and the tool never called.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { sendIfValid, validateToolInput } from './shapes.ts';
import { VOCAB_CONTEXT_URL } from './vocab.ts';

const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix jc: <https://jouleclaw.transaction.science/vocab/v1#> .
jc:ReceiptShape a sh:NodeShape ; sh:targetSubjectsOf jc:jcReceipt ;
  sh:property [ sh:path jc:tier ; sh:minCount 1 ; sh:maxCount 1 ; sh:in ( jc:Cache jc:Lawful jc:Embed jc:Model jc:Wire ) ] ;
  sh:property [ sh:path jc:joulesUj ; sh:minCount 1 ; sh:datatype xsd:nonNegativeInteger ] .`;

const prefixes = '@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix jc: <https://jouleclaw.transaction.science/vocab/v1#> .';
// a node-level constraint (no sh:path) whose results carry no message, and a property one with its own sh:message
const CLASS_SHAPES = `${prefixes} jc:S a sh:NodeShape ; sh:targetSubjectsOf jc:jcReceipt ; sh:class jc:Nothing .`;
const TIER_SHAPES = `${prefixes} jc:S a sh:NodeShape ; sh:targetSubjectsOf jc:jcReceipt ; sh:property [ sh:path jc:tier ; sh:in ( jc:Cache ) ; sh:message "tier must be Cache" ] .`;
const SH = 'http://www.w3.org/ns/shacl#';
const JC = 'https://jouleclaw.transaction.science/vocab/v1#';

const receipt = (over: Record<string, unknown> = {}) => ({ '@context': VOCAB_CONTEXT_URL, jc_receipt: '1', tier: 'L3', joules_uj: 12, ...over });

describe('SHACL validation before a tool call (jouleclaw §15)', () => {
  it('a conforming input (read through the v1 context) reaches the tool', () => {
    const seen: unknown[] = [];
    expect(sendIfValid(SHAPES, JSON.stringify(receipt()), (i) => (seen.push(i), 'done'))).toBe('done');
    expect(seen).toEqual([receipt()]);
  });

  it('a non-conforming input is ERR_SHAPE_VIOLATION and the tool is never called', () => {
    let calls = 0;
    for (const bad of [receipt({ tier: 'L9' }), receipt({ joules_uj: undefined })]) {
      expect(() => sendIfValid(SHAPES, JSON.stringify(bad), () => ++calls)).toThrow(expect.objectContaining({ code: 'ERR_SHAPE_VIOLATION' }));
    }
    expect(() => sendIfValid(SHAPES, '{not json', () => ++calls)).toThrow(expect.objectContaining({ code: 'ERR_SHAPE_VIOLATION' }));
    expect(calls).toBe(0);
  });

  it('the report names the failing constraint; shapes that are not Turtle are a bad argument', () => {
    const r = validateToolInput(SHAPES, receipt({ tier: 'HwShunt' })); // a term of the context, but no tier
    expect(r.conforms).toBe(false);
    expect(r.results.map((x) => x.constraint)).toEqual(['http://www.w3.org/ns/shacl#InConstraintComponent']);
    expect(() => validateToolInput('not turtle {', receipt())).toThrow(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
  });

  it('a remote context is never fetched: the input cannot be read, so it is refused', () => {
    expect(() => sendIfValid(SHAPES, JSON.stringify({ '@context': 'https://example.com/ctx.jsonld', a: 1 }), () => 1)).toThrow(expect.objectContaining({ code: 'ERR_SHAPE_VIOLATION' }));
  });

  it('a refusal names the count and the first result: its path, else its focus node, its constraint, its message', () => {
    const focus = 'https://example.org/r1';
    const byClass = thrown(() => sendIfValid(CLASS_SHAPES, JSON.stringify(receipt({ '@id': focus })), () => 1));
    expect(byClass.code).toBe('ERR_SHAPE_VIOLATION');
    expect(byClass.message).toBe(`ERR_SHAPE_VIOLATION: the tool input does not conform to the shapes (1 result(s); first: ${focus} ${SH}ClassConstraintComponent)`);
    expect(byClass.detail).toEqual({ results: [{ focus, path: '', constraint: `${SH}ClassConstraintComponent`, message: '' }] });
    const byTier = thrown(() => sendIfValid(TIER_SHAPES, JSON.stringify(receipt({ '@id': focus })), () => 1));
    expect(byTier.message).toBe(`ERR_SHAPE_VIOLATION: the tool input does not conform to the shapes (1 result(s); first: ${JC}tier ${SH}InConstraintComponent tier must be Cache)`);
  });

  it('refuses tool input that is not JSON, or JSON but not an object, without calling the tool', () => {
    let calls = 0;
    expect(thrown(() => sendIfValid(SHAPES, '{not json', () => ++calls)).message).toMatch(/^ERR_SHAPE_VIOLATION: the tool input is not JSON: /);
    for (const text of ['[]', '[{}]', '"x"', '1', 'null']) {
      const e = thrown(() => sendIfValid(SHAPES, text, () => ++calls));
      expect(e.code, text).toBe('ERR_SHAPE_VIOLATION');
      expect(e.message).toBe('ERR_SHAPE_VIOLATION: the tool input must be a JSON object');
    }
    expect(calls).toBe(0);
  });

  it('checks the shapes are Turtle before reading the input', () => {
    // an input that cannot be read as JSON-LD would be ERR_SHAPE_VIOLATION: the shapes are looked at first
    const e = thrown(() => validateToolInput('not turtle {', { '@context': 'https://example.com/ctx.jsonld', a: 1 }));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toMatch(/^ERR_BAD_ARGUMENT: the shapes graph is not Turtle: Unexpected "not" on line 1/);
  });
});
