// SKILL.md emission (jouleclaw §12): the agentskills.io frontmatter every JouleClaw-emitted SKILL.md carries ("name ≤ 64
// chars matching ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$; description ≤ 1024 chars"), the JouleClaw procedure under
// metadata.jouleclaw, the Markdown body after it. The frontmatter is written and read with the `yaml` package (YAML
// 1.2), so a name or description YAML would read as another type or break ("123", "null", "a: b") is quoted as needed.
//
// Lengths count Unicode code points. A name or description outside §12's limits is refused, never emitted; so is an
// empty body (§12: "The body is required by emitters").
import { parseDocument, stringify } from 'yaml';
import { JcpError } from '../errors.ts';
import { isJsonObject, type JsonObject } from './contract-json.ts';

/** The skill an emitter writes (jouleclaw §12). */
export interface SkillDoc {
  readonly name: string;
  readonly description: string;
  readonly body: string;
  /** Vendor metadata, metadata.jouleclaw among it; unknown keys are kept as they are. */
  readonly metadata?: JsonObject;
}

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const chars = (s: string): number => [...s].length;

/** Throws ERR_BAD_ARGUMENT unless `name` and `description` are within jouleclaw §12's frontmatter limits. */
export function checkSkillFrontmatter(name: unknown, description: unknown): void {
  if (typeof name !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a skill name must be text');
  if (typeof description !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a skill description must be text');
  if (chars(name) > 64) throw new JcpError('ERR_BAD_ARGUMENT', `skill name is ${chars(name)} chars; §12 allows 64`, { name });
  if (!NAME.test(name)) throw new JcpError('ERR_BAD_ARGUMENT', `skill name ${JSON.stringify(name)} does not match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`, { name });
  if (chars(description) > 1024) throw new JcpError('ERR_BAD_ARGUMENT', `skill description is ${chars(description)} chars; §12 allows 1024`);
}

/** The SKILL.md text of `skill`: YAML frontmatter between "---" lines, then the body. */
export function emitSkillMd(skill: SkillDoc): string {
  checkSkillFrontmatter(skill.name, skill.description);
  if (typeof skill.body !== 'string' || skill.body.trim() === '') throw new JcpError('ERR_BAD_ARGUMENT', 'a SKILL.md body is required (jouleclaw §12)');
  if (skill.metadata !== undefined && !isJsonObject(skill.metadata)) throw new JcpError('ERR_BAD_ARGUMENT', 'skill metadata must be an object');
  const front: Record<string, unknown> = { name: skill.name, description: skill.description };
  if (skill.metadata !== undefined) front['metadata'] = skill.metadata;
  const yamlText = stringify(front, { lineWidth: 0 });
  return `---\n${yamlText}---\n\n${skill.body.endsWith('\n') ? skill.body : `${skill.body}\n`}`;
}

/** Reads a SKILL.md back: its frontmatter checked as §12 asks of an emitted one, its metadata kept whole. */
export function parseSkillMd(text: string): SkillDoc {
  // the line break before the closing "---" belongs to the YAML's last line (a "|+" scalar keeps it)
  const m = /^---[ \t]*\r?\n([\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) throw new JcpError('ERR_BAD_ARGUMENT', 'a SKILL.md starts with YAML frontmatter between "---" lines');
  const doc = parseDocument(m[1] ?? '');
  if (doc.errors.length > 0) throw new JcpError('ERR_BAD_ARGUMENT', `SKILL.md frontmatter is not YAML: ${doc.errors[0]!.message}`);
  const front = doc.toJS() as unknown;
  if (!isJsonObject(front)) throw new JcpError('ERR_BAD_ARGUMENT', 'SKILL.md frontmatter must be a mapping');
  checkSkillFrontmatter(front['name'], front['description']);
  const metadata = front['metadata'];
  if (metadata !== undefined && !isJsonObject(metadata)) throw new JcpError('ERR_BAD_ARGUMENT', 'SKILL.md metadata must be a mapping');
  const body = text.slice(m[0].length).replace(/^\r?\n/, '');
  return { name: front['name'] as string, description: front['description'] as string, body, ...(metadata === undefined ? {} : { metadata }) };
}
