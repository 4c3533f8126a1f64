import type { Config } from '@docusaurus/types';
import { refuseUnfinishedFeatureClaims } from './unfinished-feature-claims';

/**
 * How strict the build is, shared by the site's config and the test that proves it: a broken link or
 * markdown link fails the build, and so does a page promising a feature for later ("being built");
 * broken anchors and duplicate routes are reported but do not.
 */
export const buildRules = {
  onBrokenLinks: 'throw',
  onBrokenAnchors: 'warn',
  onDuplicateRoutes: 'warn',
  markdown: {
    // `.md` pages are plain CommonMark (braces and angle brackets are just text); `.mdx` is MDX.
    format: 'detect',
    preprocessor: refuseUnfinishedFeatureClaims,
    hooks: { onBrokenMarkdownLinks: 'throw', onBrokenMarkdownImages: 'throw' },
  },
  // Rspack, SWC and LightningCSS: the cold build takes seconds instead of most of a minute.
  // CSS cascade layers stay off: the layers polyfill gives Infima's rules extra specificity, so the
  // site's own stylesheet (brand colour included) could no longer override them.
  future: {
    v4: {
      removeLegacyPostBuildHeadAttribute: true,
      useCssCascadeLayers: false,
      siteStorageNamespacing: true,
      fasterByDefault: true,
      mdx1CompatDisabledByDefault: true,
    },
    faster: true,
  },
} satisfies Partial<Config>;
