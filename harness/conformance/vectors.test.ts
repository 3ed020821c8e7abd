// Conformance: the published conformance/v1 vector packs, replayed from disk alone against the
// implementation under test — the in-process reference by default, a testee under JCP_TESTEE — one clauseIt per vector
// naming the vector's own clause ids. JCP_VECTORS_DIR replays another folder of packs (a copy, or a later version).
// That the packs are frozen (vectors:check, one changed byte) is the suite's own check, in vectors/frozen.test.ts: it
// says nothing of the implementation under test, so certify does not run it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { claimsByteContract, clauseIt, contract } from '../clause.ts';
import { implementation, testeeInfo } from '../driver.ts';
import { loadPacks, replayVectorGraded } from '../../vectors/replay.ts';

const V1 = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'vectors', 'conformance', 'v1');
const DIR = process.env['JCP_VECTORS_DIR'] ?? V1;
const packs = loadPacks(DIR);

for (const { file, pack } of packs) {
  describe(`conformance/v1 ${file} (${pack.numberOfTests} vectors)`, () => {
    for (const g of pack.testGroups) {
      for (const t of g.tests) {
        clauseIt(t.clauses, `${pack.area} tcId ${t.tcId} ${t.case} [${t.result}]: ${t.comment}`, async () => {
          const d = await replayVectorGraded(implementation(), g.type, t);
          if (!d) return;
          // a published vector is bytes: a testee that lays its objects out otherwise cannot be told apart from one
          // that decides otherwise, so only one claiming the byte contract fails on behaviour (harness/PROTOCOL.md "Grades").
          // profiles.json is the exception: its inputs are plain JSON and text, no bytes of the reference's layout, and
          // its answers hold behaviour only (an ERR_ code aside), so a behaviour difference there fails every testee
          // that claims the profile
          if (d.behaviour && (pack.area === 'profiles' || claimsByteContract(await testeeInfo()))) expect(d.behaviour).toBeUndefined();
          contract(false, d.full);
        });
      }
    }
  });
}
