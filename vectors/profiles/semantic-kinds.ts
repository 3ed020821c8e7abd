// The group kinds of vectors/profiles/semantic.ts (no imports: vectors/model.ts reads this list).
export const SEMANTIC_PROFILE_TYPES = ['McpDispatch', 'McpSession', 'VocabSeal', 'ShapesCalls'] as const;
