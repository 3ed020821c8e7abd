// profiles.json vectors of jcp:P-PROPAGATION, jcp:P-DYNAMISM, jcp:P-INFLIGHT, jcp:P-TRACE.
import type { ProfileVectorGroup } from './group.ts';
import { JCP_PROFILE_TYPES } from './jcp-kinds.ts';

type Kind = (typeof JCP_PROFILE_TYPES)[number];

export const jcpGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jcp:P-PROPAGATION', 'jcp:P-DYNAMISM', 'jcp:P-INFLIGHT', 'jcp:P-TRACE'],
  types: JCP_PROFILE_TYPES,
  kinds: {} as ProfileVectorGroup<Kind>['kinds'],
  flags: {},
  cases: () => [],
  execute: async (_impl, type) => {
    throw new Error(`no executor for ${type}`);
  },
};
