// Unit tests of SKILL.md emission (impl/jouleclaw/skill.ts, jouleclaw §12).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { emitSkillMd, parseSkillMd } from './skill.ts';

const bad = expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' });

describe('jouleclaw §12 SKILL.md', () => {
  it('emits the frontmatter and reads it back, YAML-significant text and vendor metadata kept', () => {
    const skill = { name: '123', description: 'a: b # c\n\n', body: '# Use\n', metadata: { jouleclaw: { template: 'git status' }, vendor_x: [1, 'two'] } };
    const md = emitSkillMd(skill);
    expect(md.startsWith('---\n')).toBe(true);
    expect(parseSkillMd(md)).toEqual(skill);
  });
  it('refuses names and descriptions past §12\'s limits, and an empty body', () => {
    expect(emitSkillMd({ name: 'a'.repeat(64), description: 'd'.repeat(1024), body: 'x' })).toContain('a'.repeat(64));
    for (const name of ['a'.repeat(65), '', 'A', 'a_', '-a', 'a-']) expect(() => emitSkillMd({ name, description: 'd', body: 'x' }), name).toThrow(bad);
    expect(() => emitSkillMd({ name: 'a', description: 'd'.repeat(1025), body: 'x' })).toThrow(bad);
    expect(() => emitSkillMd({ name: 'a', description: 'd', body: ' \n' })).toThrow(bad);
    expect(() => parseSkillMd('---\nname: A\ndescription: d\n---\nx')).toThrow(bad);
    expect(() => parseSkillMd('no frontmatter')).toThrow(bad);
  });

  it('names the frontmatter field that breaks §12, with the name in the detail', () => {
    const cases: [unknown, unknown, string, object | undefined][] = [
      [5, 'd', 'a skill name must be text', undefined],
      ['a', undefined, 'a skill description must be text', undefined],
      ['a'.repeat(65), 'd', 'skill name is 65 chars; §12 allows 64', { name: 'a'.repeat(65) }],
      ['a_b', 'd', 'skill name "a_b" does not match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$', { name: 'a_b' }],
      ['a', 'd'.repeat(1025), 'skill description is 1025 chars; §12 allows 1024', undefined],
    ];
    for (const [name, description, message, detail] of cases) {
      const e = thrown(() => emitSkillMd({ name, description, body: 'x' } as never));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: ${message}`);
      expect(e.detail).toEqual(detail);
    }
  });
  // jouleclaw §12: "The body is required by emitters"
  it('refuses a body that is absent or blank, and metadata that is not an object', () => {
    for (const body of [undefined, ' \n']) {
      expect(thrown(() => emitSkillMd({ name: 'a', description: 'd', body } as never)).message).toBe('ERR_BAD_ARGUMENT: a SKILL.md body is required (jouleclaw §12)');
    }
    for (const metadata of ['x', [1], null]) {
      expect(thrown(() => emitSkillMd({ name: 'a', description: 'd', body: 'x', metadata } as never)).message).toBe('ERR_BAD_ARGUMENT: skill metadata must be an object');
    }
  });
  // the emitted text is fixed, not only its YAML reading: a long description is never folded over several lines
  it('emits each field on one line, a blank line, then the body ending in a newline', () => {
    const description = 'word '.repeat(30).trim();
    expect(emitSkillMd({ name: 'a', description, body: 'x' })).toBe(`---\nname: a\ndescription: ${description}\n---\n\nx\n`);
    expect(emitSkillMd({ name: 'a', description: 'd', body: 'x\n' })).toBe('---\nname: a\ndescription: d\n---\n\nx\n');
  });
  it('reads a SKILL.md without metadata back without a metadata key, its body exactly', () => {
    const r = parseSkillMd('---\nname: a\ndescription: d\n---\nl1\nl2\n');
    expect(r).toStrictEqual({ name: 'a', description: 'd', body: 'l1\nl2\n' });
    expect(parseSkillMd('---\nname: a\ndescription: d\n---\n\n\nx')).toStrictEqual({ name: 'a', description: 'd', body: '\nx' });
  });
  it('reads "---" fences with trailing blanks, and a closing fence at the end of the text', () => {
    expect(parseSkillMd('--- \t\nname: a\ndescription: d\n---\t \nx')).toStrictEqual({ name: 'a', description: 'd', body: 'x' });
    expect(parseSkillMd('---\r\nname: a\r\ndescription: d\r\n---')).toStrictEqual({ name: 'a', description: 'd', body: '' });
  });
  it('refuses text that does not start with the frontmatter fence', () => {
    for (const text of ['no frontmatter', 'x\n---\nname: a\ndescription: d\n---\nx', '---x\nname: a\n---\n']) {
      const e = thrown(() => parseSkillMd(text));
      expect(e.code, JSON.stringify(text)).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: a SKILL.md starts with YAML frontmatter between "---" lines');
    }
  });
  it('refuses frontmatter that is not YAML, not a mapping, or whose metadata is not a mapping', () => {
    const notYaml = thrown(() => parseSkillMd('---\nname: [a\n---\nx'));
    expect(notYaml.code).toBe('ERR_BAD_ARGUMENT');
    expect(notYaml.message).toMatch(/^ERR_BAD_ARGUMENT: SKILL\.md frontmatter is not YAML: Flow sequence/);
    for (const text of ['---\n---\nx', '---\n- a\n---\nx']) {
      expect(thrown(() => parseSkillMd(text)).message, JSON.stringify(text)).toBe('ERR_BAD_ARGUMENT: SKILL.md frontmatter must be a mapping');
    }
    expect(thrown(() => parseSkillMd('---\nname: a\ndescription: d\nmetadata: x\n---\nx')).message).toBe('ERR_BAD_ARGUMENT: SKILL.md metadata must be a mapping');
  });
});
