// postcss-safe-parser ships no types; it is a postcss parser (css in, Root out, never throwing on bad CSS).
declare module 'postcss-safe-parser' {
  import type { Parser, Root } from 'postcss';

  const safeParser: Parser<Root>;
  export default safeParser;
}
