// Clause mutants of the suite-defined profiles of group readings: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';

export const READINGS_PROFILE_MUTANTS: readonly Mutant[] = [];
export const READINGS_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {};
export const READINGS_PROFILE_UNBROKEN: readonly Unbroken[] = [];
