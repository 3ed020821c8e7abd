// SKILL.md frontmatter (jouleclaw §12), through the implementation under test (suite-defined profile jouleclaw:P-SKILL;
// operation skill.emit in harness/protocol/profiles/documents.md).
//
// §12: "A JouleClaw-emitted SKILL.md MUST carry the agentskills.io required frontmatter (name ≤ 64 chars matching
// ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$; description ≤ 1024 chars)." So whatever the emitter is asked, what it emits carries
// such a frontmatter: asked for a name or description outside the limits it refuses, or emits one within them (§12 does
// not say which). Asked for a skill within the limits, it emits that skill's name and description. The frontmatter is
// read here with the `yaml` package (YAML 1.2) from between the leading "---" lines; the limits are checked by the
// test's own pattern and counts. Names with two hyphens in a row match §12's pattern but agentskills.io refuses them,
// so an emitter may refuse them; every text here is ASCII, so "chars" reads one way.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import { clauseIt, contract } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { assertProperty } from '../refusal.ts';

const FRONT = 'jouleclaw/12#skill-frontmatter';
const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const BODY = '# Use\n\nRun the procedure.\n';

/** skill.emit: the SKILL.md text, or the code it refused with. */
async function emit(name: string, description: string): Promise<{ md: string } | { refused: string }> {
  try {
    return { md: (await implementation()._call('skill.emit', { name, description, body: BODY })).get('skill_md') as string };
  } catch (e) {
    if (e instanceof TesteeError) return { refused: e.code };
    throw e;
  }
}

/** The frontmatter of a SKILL.md: the YAML between a first line "---" and the next "---" line, as a mapping. */
function frontmatter(md: string): Record<string, unknown> {
  // the line break before the closing "---" ends the YAML's last line, so it belongs to the YAML (a "|+" scalar keeps it)
  const m = /^---[ \t]*\r?\n([\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(md);
  expect(m, `a SKILL.md opening with YAML frontmatter: ${JSON.stringify(md.slice(0, 120))}`).not.toBeNull();
  const front = parse(m![1] ?? '') as unknown;
  expect(front !== null && typeof front === 'object' && !Array.isArray(front), 'the frontmatter is a mapping').toBe(true);
  return front as Record<string, unknown>;
}

/** The emitted frontmatter carries §12's required fields within their limits. */
function expectRequiredFrontmatter(md: string, what: string): Record<string, unknown> {
  const front = frontmatter(md);
  const { name, description } = front;
  expect(typeof name, `${what}: name is text`).toBe('string');
  expect(typeof description, `${what}: description is text`).toBe('string');
  expect([...(name as string)].length, `${what}: name ≤ 64 chars`).toBeLessThanOrEqual(64);
  expect(NAME.test(name as string), `${what}: name ${JSON.stringify(name)} matches §12's pattern`).toBe(true);
  expect([...(description as string)].length, `${what}: description ≤ 1024 chars`).toBeLessThanOrEqual(1024);
  return front;
}

/** Within the limits (and without two hyphens in a row): emitted, carrying that name and description. */
async function expectEmitted(name: string, description: string): Promise<void> {
  const what = `name ${JSON.stringify(name)} (${name.length}), description of ${description.length}`;
  const r = await emit(name, description);
  expect('md' in r ? 'emitted' : `refused with ${r.refused}`, what).toBe('emitted');
  const front = expectRequiredFrontmatter((r as { md: string }).md, what);
  expect(front['name'], `${what}: the name as given`).toBe(name);
  expect(front['description'], `${what}: the description as given`).toBe(description);
}

/** Outside the limits: refused (the suite's code: ERR_BAD_ARGUMENT), or emitted with a frontmatter within them. */
async function expectNeverInvalid(name: string, description: string): Promise<void> {
  const what = `name ${JSON.stringify(name.length > 80 ? `${name.slice(0, 70)}…` : name)} (${name.length}), description of ${description.length}`;
  const r = await emit(name, description);
  if ('refused' in r) contract(r.refused === 'ERR_BAD_ARGUMENT', `${what}: refused with ${r.refused}; the suite's code for it is ERR_BAD_ARGUMENT`);
  else expectRequiredFrontmatter(r.md, what);
}

const D = 'Resolve a git status query from the working tree.';
const chain = (n: number): string => Array.from({ length: n }, (_, i) => 'abcdefghij0123456789'[i % 20]).join('');

describe('jouleclaw §12 SKILL.md frontmatter', () => {
  clauseIt([FRONT], 'names and descriptions at the limits are emitted as given, with YAML-significant text kept as text', async () => {
    for (const name of ['a', '0', '7', 'ab', 'a-b', 'git-status', chain(63), chain(64), `a${'-b'.repeat(31)}a`.slice(0, 64), '9'.repeat(64), '123', '1e3', '0x1f', 'null', 'true', 'yes', 'no', 'on', '012']) {
      await expectEmitted(name, D);
    }
    for (const description of ['x', 'd'.repeat(1023), 'd'.repeat(1024), 'a: b # not a comment', "it's \"quoted\"", '- a list?', '> folded', '| literal', '[1, 2]', '{a: 1}', 'null', '123', 'true', '---', 'two\nlines', '&anchor *alias !tag %directive @at `tick']) {
      await expectEmitted('git-status', description);
    }
  });

  clauseIt([FRONT], 'names and descriptions past the limits are never emitted as they are', async () => {
    for (const name of ['', chain(65), '9'.repeat(65), `${chain(64)}-`, 'A', 'Git-status', 'git_status', 'git status', '-git', 'git-', '-', 'git.status', 'git/status', 'é', 'gït', ' git', 'git\n']) {
      await expectNeverInvalid(name, D);
    }
    for (const description of ['d'.repeat(1025), 'd'.repeat(2048)]) await expectNeverInvalid('git-status', description);
  });

  clauseIt([FRONT], 'whatever the name and description, the emitted SKILL.md carries §12\'s frontmatter; within the limits, the skill asked for (property)', async () => {
    const nameChar = fc.constantFrom(...'abz019-', ...'-', 'A', '_', ' ', '.');
    const name = fc.oneof(
      fc.array(nameChar, { maxLength: 70 }).map((cs) => cs.join('')),
      fc.integer({ min: 60, max: 68 }).map(chain),
      fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/),
    );
    const description = fc.oneof(fc.string({ unit: fc.constantFrom(...'ab :#-\'"\n{}[]'), maxLength: 40 }), fc.integer({ min: 1020, max: 1028 }).map((n) => 'w'.repeat(n)));
    await assertProperty(
      fc.asyncProperty(name, description, async (n, d) => {
        const within = n.length <= 64 && NAME.test(n) && d.length <= 1024;
        if (within && !n.includes('--') && d.length > 0) await expectEmitted(n, d);
        else await expectNeverInvalid(n, d);
      }),
      fcParams(60),
    );
  });
});
