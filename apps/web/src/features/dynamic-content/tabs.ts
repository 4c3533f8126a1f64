// The route's search validation reads these, and it is bundled with the app's entry: keeping them
// apart from the page keeps the page (and the render engine it imports) in its lazy chunk.
export const dynamicContentTabs = [
  'profiles',
  'conditionals',
  'personalization-tags',
  'link-tracking',
  'feeds',
] as const;
export type DynamicContentTab = (typeof dynamicContentTabs)[number];
