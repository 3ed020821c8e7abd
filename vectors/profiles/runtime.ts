// profiles.json vectors of jouleclaw:P-CLAIMS, jouleclaw:P-ORCHESTRATOR, jouleclaw:P-LOGGED, jouleclaw:P-WORKSPACE, jouleclaw:P-SIDECAR, jouleclaw:P-RECEIPT, jouleclaw:P-HANDOFF.
import type { ProfileVectorGroup } from './group.ts';
import { RUNTIME_PROFILE_TYPES } from './runtime-kinds.ts';

type Kind = (typeof RUNTIME_PROFILE_TYPES)[number];

export const runtimeGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jouleclaw:P-CLAIMS', 'jouleclaw:P-ORCHESTRATOR', 'jouleclaw:P-LOGGED', 'jouleclaw:P-WORKSPACE', 'jouleclaw:P-SIDECAR', 'jouleclaw:P-RECEIPT', 'jouleclaw:P-HANDOFF'],
  types: RUNTIME_PROFILE_TYPES,
  kinds: {} as ProfileVectorGroup<Kind>['kinds'],
  flags: {},
  cases: () => [],
  execute: async (_impl, type) => {
    throw new Error(`no executor for ${type}`);
  },
};
