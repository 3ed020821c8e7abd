// The kill matrix's vector-pack column: the published conformance/v1 packs replayed from disk against
// the implementation under test, one clauseIt per vector naming its clause ids, as harness/conformance/vectors.test.ts
// replays them but with every byte of an answer held to the pack (replayVector): the matrix asks whether the packs
// catch a mutant, not how a testee's difference is graded. Imported by the matrix's wrapper files.
import { describe, expect } from 'vitest';
import { clauseIt } from '../harness/clause.ts';
import { implementation } from '../harness/driver.ts';
import { replayVector } from '../vectors/replay.ts';
import { PACKS } from './packs.ts';

for (const { file, pack } of PACKS) {
  describe(`conformance/v1 ${file} (${pack.numberOfTests} vectors)`, () => {
    for (const g of pack.testGroups) {
      for (const t of g.tests) {
        clauseIt(t.clauses, `${pack.area} tcId ${t.tcId} ${t.case} [${t.result}]: ${t.comment}`, async () => {
          expect(await replayVector(implementation(), g.type, t)).toBeUndefined();
        });
      }
    }
  });
}
