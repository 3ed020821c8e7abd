// The reference implementation as the suite's own tooling: conformance tests use it to craft inputs (sign a grant
// exactly as given, build an amplifying chain, reseal a core) and to compute expected bytes. What is under test is
// always reached through harness/driver.ts (`implementation()`); this module is the only door from harness tests
// into impl/, so a test that accidentally checks the reference instead of the testee stands out in review.
export * from '../impl/index.ts';
export { nobleEd25519, nodeEd25519 } from '../impl/identity/ed25519.ts';
