// Unit tests of SKILL.md emission (impl/jouleclaw/skill.ts, jouleclaw §12).
import { describe, expect, it } from 'vitest';
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
});
