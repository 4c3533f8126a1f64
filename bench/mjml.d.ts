// mjml 5 ships no types; this is the part of its API the render benchmark uses (it returns a Promise since v5).
declare module 'mjml' {
  interface MjmlResult {
    html: string;
    errors: { message: string }[];
  }
  export default function mjml2html(
    mjml: string,
    options?: { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean; beautify?: boolean },
  ): Promise<MjmlResult>;
}
