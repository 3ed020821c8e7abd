// The reference implementation as the suite's own tooling: conformance tests use it to craft inputs (sign a grant
// exactly as given, build an amplifying chain, reseal a core) and to compute expected bytes. What is under test is
// always reached through harness/driver.ts (`implementation()`); this module is the only door from harness tests
// into impl/, so a test that accidentally checks the reference instead of the testee stands out in review.
export * from '../impl/index.ts';
export { nobleEd25519, nodeEd25519 } from '../impl/identity/ed25519.ts';
// fixtures named at module level but built on first read (harness/fixtures.ts), so that importing a test runs no impl code
export { lazy } from '../impl/_test-support.ts';
