// Self-tests of scripts/mutation-unmeasured.ts: a survivor whose run completed fewer tests than cover it is found and
// can be taken out of an incremental report; a static survivor, a survivor that ran all its covering tests, and killed
// or uncovered mutants are not. Tooling: no clause is decided here.
import { describe, expect, it } from 'vitest';
import { isUnmeasured, unmeasured, withoutUnmeasured } from '../../scripts/mutation-unmeasured.ts';

const at = (line: number) => ({ start: { line, column: 3 }, end: { line, column: 9 } });
const report = {
  schemaVersion: '2',
  files: {
    'impl/a.ts': {
      source: '',
      mutants: [
        { id: '0', status: 'Survived', testsCompleted: 0, coveredBy: ['1', '2'], mutatorName: 'EqualityOperator', location: at(10) },
        { id: '1', status: 'Survived', testsCompleted: 2, coveredBy: ['1', '2'], mutatorName: 'BlockStatement', location: at(11) },
        { id: '2', status: 'Survived', testsCompleted: 5, coveredBy: ['1'], location: at(12) },
        { id: '3', status: 'Survived', static: true, testsCompleted: 0, coveredBy: ['1'], location: at(13) },
        { id: '4', status: 'Killed', testsCompleted: 1, coveredBy: ['1', '2', '3'], location: at(14) },
        { id: '5', status: 'NoCoverage', location: at(15) },
      ],
    },
    'impl/b.ts': { source: '', mutants: [{ id: '6', status: 'Survived', testsCompleted: 1, coveredBy: ['1', '2'], mutatorName: 'StringLiteral', location: at(20) }] },
  },
};

describe('survivors that were not measured', () => {
  it('are the non-static survivors that completed fewer tests than cover them', () => {
    expect(report.files['impl/a.ts'].mutants.map(isUnmeasured)).toEqual([true, false, false, false, false, false]);
    expect(unmeasured(report)).toEqual(['impl/a.ts:10:3 EqualityOperator (0 of 2 covering tests run)', 'impl/b.ts:20:3 StringLiteral (1 of 2 covering tests run)']);
  });

  it('are looked for only in the files asked about', () => {
    expect(unmeasured(report, (f) => f === 'impl/b.ts')).toEqual(['impl/b.ts:20:3 StringLiteral (1 of 2 covering tests run)']);
  });

  it('are taken out of the report, every other mutant and file kept', () => {
    const out = withoutUnmeasured(report, (f) => f === 'impl/a.ts');
    expect(out.files['impl/a.ts']!.mutants.map((m) => m['id'])).toEqual(['1', '2', '3', '4', '5']);
    expect(out.files['impl/b.ts']).toBe(report.files['impl/b.ts']);
    expect(out['schemaVersion']).toBe('2');
    expect(unmeasured(withoutUnmeasured(report))).toEqual([]);
  });
});
