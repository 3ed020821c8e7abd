// The SHACL shapes and the inline JSON-LD context that jouleclaw:P-SHAPES is exercised with (jouleclaw §15's
// constraints over §4's ClaimProvenance and §2's ToolTouch), shared by the conformance test
// (harness/conformance/p-semantic-shapes.test.ts) and the published vectors (vectors/profiles/semantic-cases.ts).

/** The JouleClaw vocabulary's namespace (jouleclaw §13). */
export const JC = 'https://jouleclaw.transaction.science/vocab/v1#';
/** XML Schema's datatypes. */
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** SHACL Core shapes over §4's ClaimProvenance and §2's ToolTouch, using §15's constraints. */
export const CLAIM_SHAPES_TTL = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <${XSD}> .
@prefix jc: <${JC}> .
jc:ClaimProvenanceShape a sh:NodeShape ; sh:targetClass jc:ClaimProvenance ;
  sh:property [ sh:path jc:source ; sh:minCount 1 ; sh:maxCount 1 ; sh:nodeKind sh:IRI ] ;
  sh:property [ sh:path jc:contentHash ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:string ; sh:pattern "^[0-9a-f]{64}$" ] ;
  sh:property [ sh:path jc:trustTier ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:integer ; sh:minInclusive 0 ; sh:maxInclusive 10 ] .
jc:ToolTouchShape a sh:NodeShape ;
  sh:property [ sh:path jc:toolId ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:string ] ;
  sh:property [ sh:path jc:joulesUj ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:integer ; sh:minInclusive 0 ] ;
  sh:property [ sh:path jc:energyProvenance ; sh:minCount 1 ; sh:maxCount 1 ; sh:in ( jc:HwShunt jc:ModelBased jc:Estimator ) ] .
jc:ToolCallShape a sh:NodeShape ; sh:targetClass jc:ToolCall ;
  sh:property [ sh:path jc:touch ; sh:minCount 1 ; sh:node jc:ToolTouchShape ] .
`;

/** An inline context: field names to jc: IRIs, with the typed ranges the shapes check (no vocabulary file needed). */
export const CLAIM_CONTEXT = {
  jc: JC,
  xsd: XSD,
  source: { '@id': 'jc:source', '@type': '@id' },
  content_hash: { '@id': 'jc:contentHash' },
  trust_tier: { '@id': 'jc:trustTier', '@type': 'xsd:integer' },
  touch: { '@id': 'jc:touch' },
  tool_id: { '@id': 'jc:toolId' },
  joules_uj: { '@id': 'jc:joulesUj', '@type': 'xsd:integer' },
  energy_provenance: { '@id': 'jc:energyProvenance', '@type': '@vocab' },
  HwShunt: 'jc:HwShunt',
  ModelBased: 'jc:ModelBased',
  Estimator: 'jc:Estimator',
};
