// The number of sequences each differential property (./differential.ts) runs in a certify run, and under --deep: here
// alone, so that certify reads them without loading the properties.

/** The default number of sequences per property in a certify run. */
export const DEFAULT_RUNS = 60;
/** The number under `certify --deep`. */
export const DEEP_RUNS = 1000;
