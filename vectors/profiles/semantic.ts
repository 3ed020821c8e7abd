// profiles.json vectors of jouleclaw:P-MCP, jouleclaw:P-VOCAB, jouleclaw:P-SHAPES.
import type { ProfileVectorGroup } from './group.ts';
import { SEMANTIC_PROFILE_TYPES } from './semantic-kinds.ts';

type Kind = (typeof SEMANTIC_PROFILE_TYPES)[number];

export const semanticGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jouleclaw:P-MCP', 'jouleclaw:P-VOCAB', 'jouleclaw:P-SHAPES'],
  types: SEMANTIC_PROFILE_TYPES,
  kinds: {} as ProfileVectorGroup<Kind>['kinds'],
  flags: {},
  cases: () => [],
  execute: async (_impl, type) => {
    throw new Error(`no executor for ${type}`);
  },
};
