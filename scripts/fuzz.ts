// `npm run fuzz [-- options]`: the fuzzer's command line (harness/fuzz/cli.ts), run from the checkout.
import '../harness/fuzz/cli.ts';
