// Clause mutants of the suite-defined profiles jouleclaw:P-VALUE, P-WORKSPACE, P-SKILL, P-SIDECAR: source patches of copies of impl/
// modules (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const VR = 'impl/jouleclaw/value-report.ts';
const VALUE = 'jouleclaw:P-VALUE';
const WS = 'impl/jouleclaw/workspace.ts';
const WORKSPACE = 'jouleclaw:P-WORKSPACE';
const SK = 'impl/jouleclaw/skill.ts';
const SKILL = 'jouleclaw:P-SKILL';
const VRUN = 'impl/jouleclaw/vector-run.ts';
const SIDECAR = 'jouleclaw:P-SIDECAR';

export const DOCUMENTS_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jouleclaw:P-VALUE (§19.2, §19.3) ----
  { id: 'value-status-any-code', clauses: ['jouleclaw/19.2#status-in-codes'], class: VALUE, description: 'status { codes } passes whenever codes is non-empty, whatever the status', applied: `${P(VR)} runValueCheck's status kind tests codes.length, not membership` },
  { id: 'value-contract-unread', clauses: ['jouleclaw/19.2#status-in-contract'], class: VALUE, description: 'status_matches_contract passes whatever the declared statusCodes menu holds', applied: `${P(VR)} runValueCheck's status_matches_contract kind always passes once a menu is declared` },
  { id: 'value-hash-not-canonical', clauses: ['jouleclaw/19.2#output-hash-equals'], class: VALUE, description: 'output_hash_equals hashes the body as written (members in their order), not its canonical JSON', applied: `${P(VR)} runValueCheck hashes JSON.stringify of the parsed body` },
  { id: 'value-pointer-unescape-order', clauses: ['jouleclaw/19.2#json-pointer-equals'], class: VALUE, description: 'json_pointer_equals decodes ~0 before ~1, so "~01" names "/" instead of "~1"', applied: `${P(VR)} resolveJsonPointer swaps the order of RFC 6901 §4's two replacements` },
  { id: 'value-pointer-leading-zero', clauses: ['jouleclaw/19.2#json-pointer-equals'], class: VALUE, description: 'json_pointer_equals reads an array token with leading zeros ("01") as an index', applied: `${P(VR)} resolveJsonPointer's array-index pattern admits leading zeros` },
  { id: 'value-unknown-kind-passes', clauses: ['jouleclaw/19.2#unknown-kind-fails'], class: VALUE, description: 'an unknown check kind is treated as passed', applied: `${P(VR)} runValueCheck's default case answers passed: true` },
  { id: 'value-unknown-kind-unnamed', clauses: ['jouleclaw/19.2#unknown-kind-fails'], class: VALUE, description: 'an unknown check kind fails with a reason that does not name the kind', applied: `${P(VR)} runValueCheck's default case says only "unknown check kind"` },
  { id: 'value-empty-reports-counted', clauses: ['jouleclaw/19.3#skip-reports-without-checks'], class: VALUE, description: 'reports with no checks count in the mean closure rate as 0.0', applied: `${P(VR)} meanClosureRate no longer skips reports without checks` },
  // ---- jouleclaw:P-WORKSPACE (§11) ----
  { id: 'workspace-absolute-accepted', clauses: ['jouleclaw/11#reject-bad-paths'], class: WORKSPACE, description: 'an absolute path is written (its leading slashes dropped before the segments are read)', applied: `${P(WS)} checkWorkspacePath neither refuses a leading "/" nor counts the empty segment before it` },
  { id: 'workspace-empty-accepted', clauses: ['jouleclaw/11#reject-bad-paths'], class: WORKSPACE, description: 'the empty path is written', applied: `${P(WS)} checkWorkspacePath lets the empty path through before its segments are read` },
  { id: 'workspace-empty-segment-accepted', clauses: ['jouleclaw/11#reject-bad-paths'], class: WORKSPACE, description: 'a path with an empty segment ("a//b", "a/") is written', applied: `${P(WS)} checkWorkspacePath skips the empty-segment check` },
  { id: 'workspace-dotdot-accepted', clauses: ['jouleclaw/11#reject-bad-paths'], class: WORKSPACE, description: 'a path with a .. segment is written (only . is refused)', applied: `${P(WS)} checkWorkspacePath refuses "." segments only` },
  { id: 'workspace-nul-accepted', clauses: ['jouleclaw/11#reject-bad-paths'], class: WORKSPACE, description: 'a path holding a NUL byte is written', applied: `${P(WS)} checkWorkspacePath skips the NUL check` },
  { id: 'workspace-handle-unchecked', clauses: ['jouleclaw/11#verify-owner-and-signature'], class: WORKSPACE, description: "the verifier checks the signature under the embedded key but never that owner.handle is that key's did:key", applied: `${P(WS)} verifySignedWorkspaceManifest drops its checkAgentIdentity call` },
  { id: 'workspace-signature-unchecked', clauses: ['jouleclaw/11#verify-owner-and-signature'], class: WORKSPACE, description: 'the verifier checks the handle against the key and accepts whatever signature comes with it', applied: `${P(WS)} verifySignedWorkspaceManifest answers true without verifying` },
  // ---- jouleclaw:P-SKILL (§12) ----
  { id: 'skill-name-65-emitted', clauses: ['jouleclaw/12#skill-frontmatter'], class: SKILL, description: 'a 65-char name is emitted in the frontmatter', applied: `${P(SK)} checkSkillFrontmatter allows names up to 65 chars` },
  { id: 'skill-name-pattern-loose', clauses: ['jouleclaw/12#skill-frontmatter'], class: SKILL, description: 'a name ending in a hyphen is emitted (the pattern lost its last [a-z0-9])', applied: `${P(SK)} the name pattern is ^[a-z0-9][a-z0-9-]*$` },
  { id: 'skill-name-case-folded', clauses: ['jouleclaw/12#skill-frontmatter'], class: SKILL, description: 'an upper-case name is emitted as given (the pattern matched case-insensitively)', applied: `${P(SK)} the name pattern takes the i flag` },
  { id: 'skill-description-1025-emitted', clauses: ['jouleclaw/12#skill-frontmatter'], class: SKILL, description: 'a 1025-char description is emitted', applied: `${P(SK)} checkSkillFrontmatter allows descriptions up to 1025 chars` },
  { id: 'skill-frontmatter-by-hand', clauses: ['jouleclaw/12#skill-frontmatter'], class: SKILL, description: 'the frontmatter is written by string templating, so a name like "123" reads back as a number and a description with ": " or "#" breaks', applied: `${P(SK)} emitSkillMd writes "name: <name>" and "description: <description>" lines instead of YAML.stringify` },
  // ---- jouleclaw:P-SIDECAR (§6) ----
  { id: 'vector-claims-dropped', clauses: ['jouleclaw/6#receipt-per-vector'], class: SIDECAR, description: "the receipt for a published vector carries no claims, so its claims[].content_hash does not match the canonical receipt's", applied: `${P(VRUN)} receiptForVector builds the receipt from the walk with its claims emptied` },
  { id: 'vector-tier-escalated', clauses: ['jouleclaw/6#receipt-per-vector'], class: SIDECAR, description: "the receipt for a published vector names another tier (L4) than the canonical receipt", applied: `${P(VRUN)} receiptForVector builds the receipt with tier L4` },
  { id: 'vector-tool-dropped', clauses: ['jouleclaw/6#receipt-per-vector'], class: SIDECAR, description: "the receipt for a published vector leaves out the last tool touched", applied: `${P(VRUN)} receiptForVector builds the receipt from the walk less its last tools_touched entry` },
];

export const DOCUMENTS_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'value-status-any-code': [{ file: VR, find: 'const passed = (codes as number[]).includes(response.status);', replace: 'const passed = (codes as number[]).length > 0;' }],
  'value-contract-unread': [{ file: VR, find: 'const passed = statusCodes.includes(response.status);', replace: 'const passed = statusCodes !== undefined;' }],
  'value-hash-not-canonical': [
    { file: VR, find: 'const got = canonicalJsonHash(response.body);', replace: 'const got = blake3HexOfText(JSON.stringify(response.body));' },
    { file: VR, find: "import { canonicalJson, canonicalJsonHash, isJsonObject, type JsonValue } from './contract-json.ts';", replace: "import { blake3HexOfText, canonicalJson, isJsonObject, type JsonValue } from './contract-json.ts';" },
  ],
  'value-pointer-unescape-order': [{ file: VR, find: ".replace(/~1/g, '/').replace(/~0/g, '~')", replace: ".replace(/~0/g, '~').replace(/~1/g, '/')" }],
  'value-pointer-leading-zero': [{ file: VR, find: '/^(0|[1-9][0-9]*)$/', replace: '/^[0-9]+$/' }],
  'value-unknown-kind-passes': [{ file: VR, find: 'return { check: kind, passed: false, reason: `unknown check kind', replace: 'return { check: kind, passed: true, reason: `unknown check kind' }],
  'value-unknown-kind-unnamed': [{ file: VR, find: 'reason: `unknown check kind ${JSON.stringify(kind)}`', replace: "reason: 'unknown check kind'" }],
  'value-empty-reports-counted': [{ file: VR, find: "if (r['checks'].length === 0) continue;", replace: '' }],
  'workspace-absolute-accepted': [
    { file: WS, find: "if (path.startsWith('/'))", replace: "if (false && path.startsWith('/'))" },
    { file: WS, find: "for (const segment of path.split('/'))", replace: "for (const segment of path.replace(/^\\/+/, '').split('/'))" },
  ],
  'workspace-empty-accepted': [{ file: WS, find: 'if (path.length === 0) throw', replace: 'if (path.length === 0) return path;\n  if (false) throw' }],
  'workspace-empty-segment-accepted': [{ file: WS, find: "if (segment === '')", replace: "if (false && segment === '')" }],
  'workspace-dotdot-accepted': [{ file: WS, find: "if (segment === '.' || segment === '..')", replace: "if (segment === '.')" }],
  'workspace-nul-accepted': [{ file: WS, find: "if (path.includes('\\u0000'))", replace: "if (false && path.includes('\\u0000'))" }],
  'workspace-handle-unchecked': [{ file: WS, find: 'checkAgentIdentity({ handle, public_key: key });', replace: '' }],
  'workspace-signature-unchecked': [{ file: WS, find: 'return backend.verify(signature, manifestBytes(manifest), key);', replace: 'return backend !== undefined;' }],
  'skill-name-65-emitted': [{ file: SK, find: 'if (chars(name) > 64)', replace: 'if (chars(name) > 65)' }],
  'skill-name-pattern-loose': [{ file: SK, find: 'const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;', replace: 'const NAME = /^[a-z0-9][a-z0-9-]*$/;' }],
  'skill-name-case-folded': [{ file: SK, find: 'const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;', replace: 'const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;' }],
  'skill-description-1025-emitted': [{ file: SK, find: 'if (chars(description) > 1024)', replace: 'if (chars(description) > 1025)' }],
  'skill-frontmatter-by-hand': [{ file: SK, find: 'const yamlText = stringify(front, { lineWidth: 0 });', replace: 'const yamlText = `name: ${skill.name}\\ndescription: ${skill.description}\\n`;' }],
  'vector-claims-dropped': [{ file: VRUN, find: 'return cascadeReceiptJson(buildCascadeReceipt(walk));', replace: 'return cascadeReceiptJson(buildCascadeReceipt({ ...walk, claims: [] }));' }],
  'vector-tier-escalated': [{ file: VRUN, find: 'return cascadeReceiptJson(buildCascadeReceipt(walk));', replace: "return cascadeReceiptJson(buildCascadeReceipt({ ...walk, tier: 'L4' }));" }],
  'vector-tool-dropped': [
    { file: VRUN, find: 'return cascadeReceiptJson(buildCascadeReceipt(walk));', replace: "return cascadeReceiptJson(buildCascadeReceipt({ ...walk, tools_touched: (walk['tools_touched'] as unknown[]).slice(0, -1) }));" },
  ],
};

export const DOCUMENTS_PROFILE_UNBROKEN: readonly Unbroken[] = [
  {
    clause: 'jouleclaw/6#joules-within-drift-band',
    reason: "no test checks it (spec-map/allowlist.json): the band is declared in a .jc.toml whose schema is jouleclaw-pack's, not the spec's, over joules the runtime measures on its own hardware, so no patch of impl/ could break it observably",
  },
];
