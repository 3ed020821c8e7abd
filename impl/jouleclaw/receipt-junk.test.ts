// Junk thrown at every public reader of the jouleclaw §2/§7/§16/§17 modules: wrong types, look-alike objects, huge and
// non-finite numbers, broken JSON, cycles. Each is refused with a JcpError (a stable code), never a crash or an accept.
import { describe, expect, it } from 'vitest';
import { isJcpError } from '../errors.ts';
import { parseContract, contractHash } from './contract.ts';
import { canonicalJson } from './contract-json.ts';
import { commandHash, makeHandoff, parseHandoff } from './handoff.ts';
import { openRun, startRun } from './journal.ts';
import { openJcReceipt } from './receipt-envelope.ts';
import { buildCascadeReceipt, parseCascadeReceipt } from './receipt.ts';
import { openVerdictReceipt } from './verdict-receipt.ts';
import { parseEvidence, verifyContract } from './verdict.ts';
import { parseSchemaTag } from './versioning.ts';

const cyclic: Record<string, unknown> = {};
cyclic['self'] = cyclic;
const JUNK: unknown[] = [
  undefined, null, true, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2n ** 70n, '', '{', '[]', '{"a":', 'null',
  [], [null], {}, { jc_receipt: 1 }, { jc_contract: 'contract/1' }, { assertions: 'x' }, new Map(), new Uint8Array(3),
  Symbol('s'), () => 1, new Date(0), cyclic, { toJSON: () => 'x' }, Object.create(null),
];

function refusedOrReturned(f: () => unknown): 'refused' | 'returned' | string {
  try {
    f();
    return 'returned';
  } catch (e) {
    return isJcpError(e) ? 'refused' : `crashed: ${String(e)}`;
  }
}

describe('junk at the jouleclaw readers', () => {
  const readers: Record<string, (x: unknown) => unknown> = {
    parseCascadeReceipt,
    buildCascadeReceipt,
    parseContract,
    contractHash: (x) => contractHash(x === undefined ? Symbol('u') : x),
    parseEvidence,
    verifyContract: (x) => verifyContract(x, []),
    verifyContractEvidence: (x) => verifyContract({ jc_contract: 'contract/1', title: 't', assertions: [], features: [] }, x),
    parseSchemaTag,
    commandHash: (x) => commandHash(x as string[]),
    makeHandoff: (x) => makeHandoff(x as never),
    parseHandoff: (x) => parseHandoff(x as never),
    openRun: (x) => openRun(x as never),
    openRunEntry: (x) => openRun([x as never]),
    openJcReceipt: (x) => openJcReceipt(x as never),
    openVerdictReceipt: (x) => openVerdictReceipt(x as never),
    startRun: (x) => startRun('r', x as never),
    canonicalJson: (x) => canonicalJson(x === undefined ? Symbol('u') : x),
  };
  for (const [name, f] of Object.entries(readers)) {
    it(`${name} refuses junk with a JcpError`, () => {
      for (const j of JUNK) {
        const got = refusedOrReturned(() => f(j));
        // a few junk values are valid input for a lenient reader (e.g. [] is an empty evidence bag, 'null' JSON is a
        // value canonicalJson writes): those may return, but nothing may crash
        expect(got.startsWith('crashed'), `${name}(junk #${JUNK.indexOf(j)}) → ${got}`).toBe(false);
      }
    });
  }
});
