// dependency-cruiser reads TypeScript through the compiler's JavaScript API, which TypeScript 7
// (the project's compiler, a native binary) does not have yet. Its imports of `typescript` get
// TypeScript 6 instead (the `typescript-6` dev dependency), so type-only imports are seen too.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromTypeScript6 = specifier === 'typescript' || specifier.startsWith('typescript/');
    return nextResolve(
      fromTypeScript6 ? specifier.replace('typescript', 'typescript-6') : specifier,
      context,
    );
  },
});
