// profiles.json vectors of jouleclaw:P-ENERGY, sense:P-ENERGY, sense:P-OBSERVER, sense:P-HONESTY.
import type { ProfileVectorGroup } from './group.ts';
import { ENERGY_PROFILE_TYPES } from './energy-kinds.ts';

type Kind = (typeof ENERGY_PROFILE_TYPES)[number];

export const energyGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jouleclaw:P-ENERGY', 'sense:P-ENERGY', 'sense:P-OBSERVER', 'sense:P-HONESTY'],
  types: ENERGY_PROFILE_TYPES,
  kinds: {} as ProfileVectorGroup<Kind>['kinds'],
  flags: {},
  cases: () => [],
  execute: async (_impl, type) => {
    throw new Error(`no executor for ${type}`);
  },
};
