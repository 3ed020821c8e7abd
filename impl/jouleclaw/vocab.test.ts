// jouleclaw §13: the v1 context expands a receipt into the triples §13 names; the ontology declares the PROV-O
// alignment §13 lists and every property the context maps; the signed core never holds @context.
import { describe, expect, it } from 'vitest';
import { lazyKey } from '../_test-support.ts';
import { decodeCanonical } from '../cbor/index.ts';
import { decodeSign1 } from '../cose/sign1.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { JC_NS, VOCAB_CONTEXT_URL, jsonLdQuads, sealCascadeReceiptLd, signedCoreOf, vocabContextDocument, vocabDocumentLoader, vocabOntology } from './vocab.ts';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SUBCLASS = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';
const PROV = 'http://www.w3.org/ns/prov#';
const steward = lazyKey('steward');

const receipt = {
  '@context': VOCAB_CONTEXT_URL,
  jc_receipt: '1',
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  closed_at: '2026-06-08T12:00:00Z',
  input_hash: 'a'.repeat(64),
  tier: 'L3',
  joules_uj: 3500000,
  energy_provenance: 'ModelBased',
  tools_touched: [{ tool_id: 'model:gemma4-9b-q5_k_m', joules_uj: 3500000, energy_provenance: 'ModelBased' }],
  claims: [],
};

describe('the JouleClaw v1 vocabulary (jouleclaw §13)', () => {
  it('a receipt with the context expands to <receipt> jc:tier jc:Model and <receipt> jc:energyProvenance jc:ModelBased, on one subject', async () => {
    const quads = await jsonLdQuads(receipt);
    const tier = quads.filter((q) => q.predicate.value === `${JC_NS}tier`);
    expect(tier.map((q) => q.object.value)).toEqual([`${JC_NS}Model`]);
    const prov = quads.filter((q) => q.predicate.value === `${JC_NS}energyProvenance` && q.subject.equals(tier[0]!.subject));
    expect(prov.map((q) => [q.object.termType, q.object.value])).toEqual([['NamedNode', `${JC_NS}ModelBased`]]);
  });

  it('each tier wire tag expands to its §1.1 named tag', async () => {
    const named: Record<string, string> = { L0: 'Cache', L1: 'Lawful', L2: 'Embed', L3: 'Model', L4: 'Wire' };
    for (const [tag, name] of Object.entries(named)) {
      const quads = await jsonLdQuads({ ...receipt, tier: tag });
      expect(quads.find((q) => q.predicate.value === `${JC_NS}tier`)?.object.value).toBe(`${JC_NS}${name}`);
    }
  });

  it('every term the context maps is a jc: IRI the ontology declares, and §13\'s PROV-O alignment is in the ontology', () => {
    const store = vocabOntology();
    const ctx = vocabContextDocument()['@context'] as Record<string, unknown>;
    for (const [term, def] of Object.entries(ctx)) {
      if (term.startsWith('@') || ['jc', 'prov', 'xsd'].includes(term)) continue;
      const id = typeof def === 'string' ? def : (def as { '@id': string })['@id'];
      expect(id.startsWith('jc:'), term).toBe(true);
      expect(store.getQuads(`${JC_NS}${id.slice(3)}`, RDF_TYPE, null, null).length, id).toBeGreaterThan(0);
    }
    for (const [c, p] of [['ClaimProvenance', 'Entity'], ['AuditEvent', 'Activity'], ['AgentIdentity', 'Agent']] as const) {
      expect(store.getQuads(`${JC_NS}${c}`, SUBCLASS, `${PROV}${p}`, null)).toHaveLength(1);
    }
  });

  it('the loader serves the local context and refuses any other URL (no network)', async () => {
    expect((await vocabDocumentLoader(VOCAB_CONTEXT_URL)).document).toEqual(vocabContextDocument());
    await expect(vocabDocumentLoader('https://example.com/ctx.jsonld')).rejects.toMatchObject({ code: 'ERR_BAD_ARGUMENT' });
  });

  it('the signed core of a sealed receipt holds no @context; the JSON-LD form beside it does', () => {
    expect(signedCoreOf(receipt)).not.toHaveProperty('@context');
    const sealed = sealCascadeReceiptLd(receipt, steward);
    const core = decodeCanonical(decodeSign1(sealed.receipt).payload) as Map<unknown, unknown>;
    expect(core.has('@context')).toBe(false);
    expect(core.get('tier')).toBe('L3');
    expect(core.get('steward')).toBe(steward.did);
    expect(sealed.jsonld['@context']).toBe(VOCAB_CONTEXT_URL);
  });

  it('a receipt naming another steward than the signer is refused', () => {
    const other = keyPairFromSeed(deriveSeed('alice'));
    expect(() => sealCascadeReceiptLd({ ...receipt, steward: other.did }, steward)).toThrow(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
  });
});
