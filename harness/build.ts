// Whether the harness runs from its TypeScript source (a checkout: tsx, vitest) or compiled to JavaScript (the
// installed package, built by scripts/build-package.ts into the same layout): the files it starts or hands to the test
// runner by path are named with the extension of the build it is part of.
export const COMPILED = import.meta.url.endsWith('.js');

/** `file` (a path ending in .ts, relative or absolute) as this build has it: .js where the harness runs compiled. */
export function built(file: string): string {
  return COMPILED ? file.replace(/\.ts$/, '.js') : file;
}
