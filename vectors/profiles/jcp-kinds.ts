// The group kinds of vectors/profiles/jcp.ts (no imports: vectors/model.ts reads this list).
export const JCP_PROFILE_TYPES = [] as const;
