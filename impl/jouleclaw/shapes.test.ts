// jouleclaw §15: a tool input failing its SHACL shapes is refused and the tool never called.
import { describe, expect, it } from 'vitest';
import { sendIfValid, validateToolInput } from './shapes.ts';
import { VOCAB_CONTEXT_URL } from './vocab.ts';

const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix jc: <https://jouleclaw.transaction.science/vocab/v1#> .
jc:ReceiptShape a sh:NodeShape ; sh:targetSubjectsOf jc:jcReceipt ;
  sh:property [ sh:path jc:tier ; sh:minCount 1 ; sh:maxCount 1 ; sh:in ( jc:Cache jc:Lawful jc:Embed jc:Model jc:Wire ) ] ;
  sh:property [ sh:path jc:joulesUj ; sh:minCount 1 ; sh:datatype xsd:nonNegativeInteger ] .`;

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
});
