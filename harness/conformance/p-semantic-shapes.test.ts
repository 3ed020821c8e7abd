// jouleclaw:P-SHAPES (suite-defined profile, spec-map/profiles.json): jouleclaw §15 "A tool input that fails validation
// MUST NOT be sent to the tool." Through the implementation under test: it is given a fake tool (shapes.tool, which
// records every input it is sent), a SHACL Core shapes graph written below from §15's list of constraints ("sh:minCount /
// sh:maxCount, sh:datatype …, sh:nodeKind …, sh:in …, sh:pattern …, sh:minInclusive / sh:maxInclusive, and sh:node")
// over §4's ClaimProvenance and §2's ToolTouch, and a candidate input as JSON-LD with its context inline (so no
// vocabulary file of the suite's is needed to read it). Whether each input conforms is decided in this file from the
// shapes' own constraints, not by asking any validator. A non-conforming input must come back refused and the tool's
// record must stay as it was; a conforming one must reach the tool (so a testee refusing everything does not pass).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { CLAIM_CONTEXT, CLAIM_SHAPES_TTL, XSD } from '../shapes-fixture.ts';

const NOT_SENT = 'jouleclaw/15#invalid-input-not-sent';

const claim = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  '@context': CLAIM_CONTEXT,
  '@type': 'jc:ClaimProvenance',
  source: 'https://en.wikipedia.org/wiki/Gemma_(model)',
  content_hash: 'ab'.repeat(32),
  trust_tier: 9,
  ...over,
});
const toolCall = (touch: Record<string, unknown>): Record<string, unknown> => ({ '@context': CLAIM_CONTEXT, '@type': 'jc:ToolCall', touch });

async function newTool(): Promise<string> {
  return (await implementation()._call('shapes.tool', {})).get('tool') as string;
}
async function sentTo(tool: string): Promise<unknown[]> {
  return ((await implementation()._call('shapes.calls', { tool })).get('inputs') as string[]).map((t) => JSON.parse(t));
}
function call(tool: string, input: Record<string, unknown>): Promise<unknown> {
  return implementation()._call('shapes.call', { tool, shapes_ttl: CLAIM_SHAPES_TTL, input_json: JSON.stringify(input) });
}

/** A conforming input reaches the tool, exactly as given. */
async function expectSent(tool: string, input: Record<string, unknown>): Promise<void> {
  const before = await sentTo(tool);
  await call(tool, input);
  expect(await sentTo(tool), 'a conforming input reaches the tool').toEqual([...before, input]);
}

/** A non-conforming input is refused and never reaches the tool. */
async function expectNotSent(tool: string, input: Record<string, unknown>, why: string): Promise<void> {
  const before = await sentTo(tool);
  await expectCode(call(tool, input), 'ERR_SHAPE_VIOLATION', why);
  expect(await sentTo(tool), `${why}: the tool was not called`).toEqual(before);
}

describe('an input failing its SHACL shapes is never sent to the tool (jouleclaw §15)', () => {
  clauseIt([NOT_SENT], 'each constraint of §15 that fails keeps the input from the tool; the conforming input reaches it', async () => {
    const tool = await newTool();
    expect(await sentTo(tool), 'a fresh tool has been sent nothing').toEqual([]);
    await expectSent(tool, claim());
    const cases: [string, Record<string, unknown>][] = [
      ['sh:maxInclusive (trust_tier 11)', claim({ trust_tier: 11 })],
      ['sh:minInclusive (trust_tier -1)', claim({ trust_tier: -1 })],
      ['sh:pattern (content_hash in upper case)', claim({ content_hash: 'AB'.repeat(32) })],
      ['sh:minCount (no source)', (() => { const c = claim(); delete c['source']; return c; })()],
      ['sh:maxCount (two sources)', claim({ source: ['https://a.example/x', 'https://b.example/y'] })],
      ['sh:nodeKind sh:IRI (source a literal)', claim({ source: { '@value': 'https://a.example/x' } })],
      ['sh:datatype xsd:integer (trust_tier a string)', claim({ trust_tier: { '@value': '9', '@type': `${XSD}string` } })],
      ['sh:in (energy_provenance outside the enumeration), through sh:node', toolCall({ tool_id: 'model:x', joules_uj: 5, energy_provenance: 'Guessed' })],
      ['sh:minCount through sh:node (no tool_id)', toolCall({ joules_uj: 5, energy_provenance: 'HwShunt' })],
    ];
    for (const [why, input] of cases) await expectNotSent(tool, input, why);
    await expectSent(tool, toolCall({ tool_id: 'model:x', joules_uj: 5, energy_provenance: 'HwShunt' }));
    expect(await sentTo(tool)).toHaveLength(2);
  });

  clauseIt([NOT_SENT], 'over drawn claims, exactly the conforming ones reach the tool, in order (property)', async () => {
    const tool = await newTool();
    const hash = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{64}$/),
      fc.stringMatching(/^[0-9a-fA-F]{0,70}$/),
    );
    const drawn = fc.array(fc.record({ trust_tier: fc.integer({ min: -3, max: 13 }), content_hash: hash }), { minLength: 1, maxLength: 5 });
    const sent: unknown[] = [];
    await assertProperty(
      fc.asyncProperty(drawn, async (claims) => {
        for (const c of claims) {
          const input = claim(c);
          // the shapes above: trust_tier 0..10, content_hash 64 lower-case hex digits
          const conforms = c.trust_tier >= 0 && c.trust_tier <= 10 && /^[0-9a-f]{64}$/.test(c.content_hash);
          const got = await codeOf(call(tool, input));
          if (conforms) {
            expect(got, `trust_tier ${c.trust_tier}, content_hash ${c.content_hash}: conforming, so sent`).toBe('accepted');
            sent.push(input);
          } else {
            expect(got, `trust_tier ${c.trust_tier}, content_hash ${c.content_hash}: refused`).not.toBe('accepted');
          }
          expect(await sentTo(tool), 'the tool was sent exactly the conforming inputs').toEqual(sent);
        }
      }),
      fcParams(15),
    );
  });
});
