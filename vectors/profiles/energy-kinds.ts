// The group kinds of vectors/profiles/energy.ts (no imports: vectors/model.ts reads this list).
export const ENERGY_PROFILE_TYPES = [
  'SenseEnergyMeter',
  'EnergyFigureMake',
  'SenseObserverReplay',
  'SenseAnswerEnergy',
  'EnergyLiveness',
  'JcEnergyLadder',
  'JcEnergyPlausibility',
  'JcEnergyFloors',
  'JcEnergyBreaker',
  'JcEnergyProcSelf',
] as const;
