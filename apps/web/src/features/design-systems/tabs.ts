export const designSystemTabs = ['components', 'tokens', 'brands', 'layouts'] as const;
export type DesignSystemTab = (typeof designSystemTabs)[number];
