// jouleclaw §13 the JSON-LD vocabulary: the v1 context (vocab/v1.jsonld) and Turtle ontology (vocab/v1.ttl), read by
// `jsonld` and `n3`, and the one normative rule §13 gives about them — "The canonical signed core of a JCR-1 envelope
// MUST NOT include @context — the JSON-LD context is metadata, not payload."
//
// Readings taken where §13 leaves a shape open (the suite's choices):
//  - §13 names the context's URL and two example triples (tier "L3" → jc:Model, energy_provenance "ModelBased" →
//    jc:ModelBased) but not its content: each field name of §§2, 10, 11 maps to jc:<camelCase of the name>; the tier
//    wire tags map to §1.1's named tags (L0 jc:Cache … L4 jc:Wire), the provenances to jc:<name>.
//  - The context is served from this checkout only (vocabDocumentLoader): no network fetch, any other URL refused.
//  - The producer emits @context on the JSON-LD form by default (§13 "Production default") and drops it from the core
//    it signs; the signed core is the receipt's fields as cascadeReceiptJson writes them, with the signer as steward.
import { readFileSync } from 'node:fs';
import { Parser, Store, type Quad } from 'n3';
import { JcpError } from '../errors.ts';
import type { KeyPair } from '../identity/ed25519.ts';
import type { JsonObject } from './contract-json.ts';
import { sealJcCore, type JcCore } from './receipt-envelope.ts';
import { jouleclawFile } from './semantic/sync.ts';
import { cascadeReceiptJson, parseCascadeReceipt } from './receipt.ts';

/** jouleclaw §13 the namespace (prefix jc:). */
export const JC_NS = 'https://jouleclaw.transaction.science/vocab/v1#';
/** jouleclaw §13 the JSON-LD context's URL. */
export const VOCAB_CONTEXT_URL = 'https://jouleclaw.transaction.science/vocab/v1.jsonld';
/** jouleclaw §13 the Turtle ontology's URL. */
export const VOCAB_ONTOLOGY_URL = 'https://jouleclaw.transaction.science/vocab/v1.ttl';

const here = (name: string): URL => jouleclawFile(`vocab/${name}`);

/** The v1 context document ({"@context": {...}}), as this checkout holds it (jouleclaw §13 "Canonical source"). */
export function vocabContextDocument(): JsonObject {
  return JSON.parse(readFileSync(here('v1.jsonld'), 'utf8')) as JsonObject;
}

/** The v1 ontology's Turtle text. */
export function vocabOntologyTurtle(): string {
  return readFileSync(here('v1.ttl'), 'utf8');
}

/** The ontology parsed into an n3 Store. */
export function vocabOntology(): Store {
  return new Store(new Parser({ baseIRI: VOCAB_ONTOLOGY_URL }).parse(vocabOntologyTurtle()));
}

/** A jsonld documentLoader serving the v1 context from this checkout; any other URL is refused (no network). */
export async function vocabDocumentLoader(url: string): Promise<{ contextUrl: null; documentUrl: string; document: JsonObject }> {
  if (url === VOCAB_CONTEXT_URL) return { contextUrl: null, documentUrl: url, document: vocabContextDocument() };
  throw new JcpError('ERR_BAD_ARGUMENT', `no document is served for ${url}: only the JouleClaw v1 context is loaded, never from the network`);
}

/**
 * A JSON-LD document as RDF quads (jsonld.toRDF to N-Quads, parsed by n3), with only the local context loadable.
 * `jsonld` is loaded on the first call, not with this module: with its HTTP client it was the largest part of what a
 * process importing impl/ loaded at start (the reference testee's start, measured here: 0.35 s rather than 0.49, 0.39
 * CPU-seconds rather than 0.59).
 */
export async function jsonLdQuads(doc: JsonObject): Promise<Quad[]> {
  const { default: jsonld } = await import('jsonld');
  const nquads = (await jsonld.toRDF(doc as never, { format: 'application/n-quads', documentLoader: vocabDocumentLoader as never, safe: true } as never)) as unknown as string;
  return new Parser({ format: 'application/n-quads' }).parse(nquads);
}

/** The JSON-LD form of a receipt object: the receipt with @context set to the v1 vocabulary URL (§13 "Production default"). */
export function withContext(receipt: JsonObject): JsonObject {
  return { '@context': VOCAB_CONTEXT_URL, ...receipt };
}

/** jouleclaw §13: the signed core of a JSON-LD form — every field but @context ("metadata, not payload"). */
export function signedCoreOf(doc: JsonObject): JsonObject {
  const core: JsonObject = { ...doc };
  delete core['@context'];
  return core;
}

/** What {@link sealCascadeReceiptLd} yields: the sealed envelope and the JSON-LD form published beside it. */
export interface SealedLdReceipt {
  readonly receipt: Uint8Array;
  readonly jsonld: JsonObject;
}

/**
 * Seals a cascade receipt (JSON, with or without @context) under `steward`: its JSON-LD form carries @context, the
 * signed core does not (§13). A receipt naming another steward than the signer is ERR_BAD_ARGUMENT; a malformed one
 * ERR_JC_RECEIPT_MALFORMED (or the other codes of parseCascadeReceipt).
 */
export function sealCascadeReceiptLd(receiptJson: unknown, steward: KeyPair): SealedLdReceipt {
  const r = parseCascadeReceipt(receiptJson);
  if (r.steward !== undefined && r.steward !== steward.did) {
    throw new JcpError('ERR_BAD_ARGUMENT', `the receipt names steward ${r.steward} but is to be signed by ${steward.did}`);
  }
  const ld = withContext(cascadeReceiptJson({ ...r, steward: steward.did }));
  const core = signedCoreOf(ld);
  return Object.freeze({ receipt: sealJcCore(core as JcCore, steward), jsonld: ld });
}
