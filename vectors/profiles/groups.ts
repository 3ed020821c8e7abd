// The profiles.json vector groups kept in modules of their own (vectors/profiles/<group>.ts), in pack order after the
// groups of vectors/p-cases.ts.
import type { ProfileVectorGroup } from './group.ts';
import { jcpGroup } from './jcp.ts';
import { energyGroup } from './energy.ts';
import { runtimeGroup } from './runtime.ts';
import { semanticGroup } from './semantic.ts';

/** The groups by the name of their module (`vectors/profiles/<name>.ts`), in pack order. */
export const PROFILE_VECTOR_GROUPS_BY_NAME: Readonly<Record<string, ProfileVectorGroup>> = { jcp: jcpGroup, energy: energyGroup, runtime: runtimeGroup, semantic: semanticGroup };

export const PROFILE_VECTOR_GROUPS: readonly ProfileVectorGroup[] = Object.values(PROFILE_VECTOR_GROUPS_BY_NAME);

/** The group that runs vectors of `type`, if any. */
export const groupOf = (type: string): ProfileVectorGroup | undefined => PROFILE_VECTOR_GROUPS.find((g) => (g.types as readonly string[]).includes(type));
