const tabIdKey = 'letterset.tab-id';

let fallbackTabId: string | null = null;

/**
 * This browser tab's id: kept in sessionStorage, so it survives a reload of the tab and no other tab
 * opened by the user has it. (A tab made with the browser's "Duplicate" starts with a copy of the
 * original's sessionStorage, hence its id: the two then share a draft slot, as they share its content.)
 */
export function tabId(): string {
  try {
    const known = sessionStorage.getItem(tabIdKey);
    if (known) return known;
    const fresh = crypto.randomUUID();
    sessionStorage.setItem(tabIdKey, fresh);
    return fresh;
  } catch {
    fallbackTabId ??= crypto.randomUUID();
    return fallbackTabId;
  }
}
