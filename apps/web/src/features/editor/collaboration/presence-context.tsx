import type { EmailPresence } from '@letterset/core';
import { createContext, type ReactNode, useContext } from 'react';

const PresenceContext = createContext<readonly EmailPresence[]>([]);

/** Who else has the email open, for the parts of the editor that show it (toolbar, outline, preview). */
export function PresenceProvider({
  others,
  children,
}: {
  others: readonly EmailPresence[];
  children: ReactNode;
}) {
  return <PresenceContext.Provider value={others}>{children}</PresenceContext.Provider>;
}

/** Everyone else who has the email open; empty outside an email's editor. */
export function usePresentOthers(): readonly EmailPresence[] {
  return useContext(PresenceContext);
}
