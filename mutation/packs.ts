// The published conformance/v1 packs, read and checked against their schemas once per matrix worker: every vector
// replay wrapper (mutation/vector-replay.ts, imported as an instance of its own per mutant) reads them from here, where
// reading them again for each mutant cost a third of a second each.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPacks } from '../vectors/replay.ts';

export const PACKS = loadPacks(join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors', 'conformance', 'v1'));
