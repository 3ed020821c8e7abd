// The group kinds of vectors/profiles/runtime.ts (no imports: vectors/model.ts reads this list).
export const RUNTIME_PROFILE_TYPES = ['ClaimsResolve', 'OrchestratorRun', 'LoggedDecide', 'WorkspaceVerify', 'SidecarVector', 'ReceiptTier', 'HandoffRecord', 'HandoffConsume', 'RunDispatch'] as const;
