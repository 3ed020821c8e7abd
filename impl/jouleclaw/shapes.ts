// jouleclaw §15 SHACL shapes: "A tool input that fails validation MUST NOT be sent to the tool." A candidate tool input
// (JSON-LD) is read as RDF with `jsonld` (only the v1 context of §13 is loadable, no network), validated against a
// SHACL Core shapes graph (Turtle, read by `n3`) by `shacl-engine`, and handed to the tool only when the report
// conforms; otherwise it is refused with ERR_SHAPE_VIOLATION and the tool is never called.
//
// Readings taken (the suite's choices where §15 is silent):
//  - An input that cannot be read as JSON-LD at all cannot be validated, so it fails validation (ERR_SHAPE_VIOLATION);
//    a shapes graph that is not Turtle is a bad argument (ERR_BAD_ARGUMENT). Neither reaches the tool.
//  - A shapes graph whose targets select no node of the input is conforming (SHACL's own reading, §3.4 of the W3C
//    recommendation): the input is sent.
import { Parser } from 'n3';
import { JcpError } from '../errors.ts';
import type { JsonObject } from './contract-json.ts';
import { readJson, isJsonObject } from './contract-json.ts';
import { runSync } from './semantic/sync.ts';
import { VOCAB_CONTEXT_URL, vocabContextDocument } from './vocab.ts';

/** One sh:ValidationResult, flattened. */
export interface ShapeResult {
  readonly focus: string;
  readonly path: string;
  readonly constraint: string;
  readonly message: string;
}

/** A sh:ValidationReport, flattened. */
export interface ShapeReport {
  readonly conforms: boolean;
  readonly results: readonly ShapeResult[];
}

/** Validates a JSON-LD tool input against a SHACL Core shapes graph (Turtle). */
export function validateToolInput(shapesTurtle: string, input: JsonObject): ShapeReport {
  try {
    new Parser().parse(shapesTurtle);
  } catch (e) {
    throw new JcpError('ERR_BAD_ARGUMENT', `the shapes graph is not Turtle: ${(e as Error).message}`);
  }
  const dataNquads = runSync<string>('toRdf', { doc: input, documents: { [VOCAB_CONTEXT_URL]: vocabContextDocument() } }, 'ERR_SHAPE_VIOLATION');
  return runSync<ShapeReport>('validate', { shapesTurtle, dataNquads });
}

/**
 * jouleclaw §15: calls `tool` with `inputJson` only when it conforms to the shapes; a non-conforming input is
 * ERR_SHAPE_VIOLATION (detail: the report's results) and the tool is not called.
 */
export function sendIfValid<T>(shapesTurtle: string, inputJson: string, tool: (input: JsonObject) => T): T {
  const input = readJson(inputJson, 'ERR_SHAPE_VIOLATION', 'the tool input');
  if (!isJsonObject(input)) throw new JcpError('ERR_SHAPE_VIOLATION', 'the tool input must be a JSON object');
  const report = validateToolInput(shapesTurtle, input);
  if (!report.conforms) {
    const first = report.results[0];
    throw new JcpError('ERR_SHAPE_VIOLATION', `the tool input does not conform to the shapes (${report.results.length} result(s)${first ? `; first: ${first.path || first.focus} ${first.constraint} ${first.message}`.trimEnd() : ''})`, {
      results: report.results,
    });
  }
  return tool(input);
}
