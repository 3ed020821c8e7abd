// `tsx vectors/profiles/try.ts <group> [--testee '<command>']` — runs one group of vectors/profiles/ on its own,
// without writing any pack: each case as vectors:gen publishes it (vectors/gen.ts vectorOf: clause ids and flags looked
// up, run through the in-process reference and held to its declared outcome — a case the reference does not meet is
// reported, never published), its inputs and expected answer checked against the kind's JSON Schema; then, with
// --testee, every vector replayed against that testee (the bundled independent implementation, say) as the conformance
// replay would, behaviour differences shown. Exit 0 when all holds, 1 when anything does not, 2 on a bad command line.
import { parseArgs } from 'node:util';
import { Implementation } from '../../harness/implementation.ts';
import { inProcessTransport } from '../../harness/drivers/in-process.ts';
import { testeeTransport } from '../../harness/drivers/testee.ts';
import { vectorOf } from '../gen.ts';
import { validateJson } from '../json-schema.ts';
import type { GroupType, VectorTest } from '../model.ts';
import { replayVectorGraded } from '../replay.ts';
import { PROFILE_VECTOR_GROUPS_BY_NAME } from './groups.ts';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ allowPositionals: true, options: { testee: { type: 'string' } } });
  } catch (e) {
    console.error(`try: ${(e as Error).message}`);
    return 2;
  }
  const name = args.positionals[0];
  const group = name === undefined ? undefined : PROFILE_VECTOR_GROUPS_BY_NAME[name];
  if (!group) {
    console.error(`try: name a group (${Object.keys(PROFILE_VECTOR_GROUPS_BY_NAME).join(', ')})`);
    return 2;
  }
  const problems: string[] = [];
  const cases = group.cases();
  const impl = new Implementation(inProcessTransport());
  const tests: { type: GroupType; test: VectorTest }[] = [];
  const names = new Set<string>();
  for (const c of cases) {
    const where = `profiles/${c.name}`;
    if (names.has(c.name)) problems.push(`${where}: the name is used twice`);
    names.add(c.name);
    if (!(group.types as readonly string[]).includes(c.type)) problems.push(`${where}: ${c.type} is not a kind of this group`);
    let test: VectorTest;
    try {
      test = await vectorOf(impl, c, tests.length + 1);
    } catch (e) {
      problems.push(`${where}: ${(e as Error).message}`);
      continue;
    }
    const kind = (group.kinds as Readonly<Record<string, { inputs: Record<string, unknown>; expected: Record<string, unknown> }>>)[c.type];
    if (kind) {
      for (const p of validateJson(kind.inputs, test.inputs)) problems.push(`${where}: inputs: ${p}`);
      for (const p of validateJson(kind.expected, test.expected)) problems.push(`${where}: expected: ${p}`);
    } else problems.push(`${where}: no schema for ${c.type}`);
    tests.push({ type: c.type, test });
  }
  await impl.transport.close();
  console.log(`${group.profiles.join(', ')}: ${cases.length} cases through the reference, ${problems.length} problems`);
  if (args.values.testee) {
    const testee = new Implementation(testeeTransport(args.values.testee, { timeoutMs: 20_000 }));
    let differ = 0;
    for (const { type, test } of tests) {
      try {
        const d = await replayVectorGraded(testee, type, test);
        if (d) {
          differ++;
          console.log(`  ${d.behaviour ? 'BEHAVIOUR' : 'bytes/code only'}: ${d.behaviour ?? d.full}`);
          if (d.behaviour) problems.push(`testee: ${d.behaviour}`);
        }
      } catch (e) {
        differ++;
        problems.push(`testee: ${test.case}: ${(e as Error).message}`);
      }
    }
    await testee.transport.close();
    console.log(`testee: ${tests.length} vectors replayed, ${differ} differ`);
  }
  for (const p of problems) console.log(`PROBLEM ${p}`);
  return problems.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
