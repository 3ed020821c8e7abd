// How a source-patch mutant says it was applied (mutation/catalog.ts Mutant.applied), shared by the catalog and the
// profiles' mutant files.

/** The opening of a source-patch mutant's `applied`: a patch of a copy of `file` (mutation/testees/patches.ts). */
export const P = (file: string): string => `source patch of a copy of ${file} (mutation/testees/patches.ts):`;
