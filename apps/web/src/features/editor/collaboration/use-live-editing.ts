import type { EmailPresence } from '@letterset/core';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { followEmailEvents } from '../../live/email-event-streams.ts';
import { tabId } from '../../live/tab-id.ts';
import type { Autosave } from '../autosave.ts';
import type { EditTarget } from '../edit-target.ts';
import { announcePresence, fetchEmail, leavePresence } from './collaboration-api.ts';
import { PresenceSession } from './presence-session.ts';

const browserTimers = {
  set: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Editing an email together: others' saves announced on the email's event stream reach the
 * autosave (which merges them in), or, in a read-only editor, replace what is shown; this tab's
 * presence and selection are announced, and the others' are returned. Layouts have no stream:
 * nothing happens for them.
 */
export function useLiveEditing({
  workspaceId,
  target,
  autosave,
  selectedId,
  onReplace,
}: {
  workspaceId: number;
  target: EditTarget;
  autosave: Autosave<EditTarget> | null;
  selectedId: string | null;
  onReplace: (target: EditTarget) => void;
}): readonly EmailPresence[] {
  const emailId = target.kind === 'email' ? target.email.id : null;
  const openedLockVersion = target.kind === 'email' ? target.email.lock_version : 0;
  const latest = useRef({ autosave, onReplace, selectedId, openedLockVersion });
  latest.current = { autosave, onReplace, selectedId, openedLockVersion };

  const [presence] = useState(() =>
    emailId === null
      ? null
      : new PresenceSession({
          sessionId: tabId(),
          announce: (selected) => announcePresence(workspaceId, emailId, tabId(), selected),
          leave: () => void leavePresence(workspaceId, emailId, tabId()).catch(() => undefined),
          timers: browserTimers,
          now: Date.now,
        }),
  );

  useEffect(() => {
    if (emailId === null || !presence) return;
    presence.start(latest.current.selectedId);
    // A closing tab says goodbye at once; one restored from the back-forward cache says hello again.
    const leave = () => presence.stop();
    const back = (event: PageTransitionEvent) => {
      if (event.persisted) presence.start(latest.current.selectedId);
    };
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', back);
    let replacing = false;
    // Read-only: nothing of this person's to merge, a newer copy is shown as it is.
    const showNewer = (announcedLockVersion: number | null) => {
      if (replacing) return;
      if (announcedLockVersion !== null && announcedLockVersion <= latest.current.openedLockVersion) return;
      replacing = true;
      fetchEmail(workspaceId, emailId).then(
        (email) => {
          if (email.lock_version > latest.current.openedLockVersion)
            latest.current.onReplace({ kind: 'email', email });
          else replacing = false;
        },
        () => {
          replacing = false;
        },
      );
    };
    const stopFollowing = followEmailEvents(workspaceId, emailId, (event) => {
      presence.hear(event);
      const { autosave: current } = latest.current;
      if (event.type === 'content_changed') {
        if (current) current.announced(event.lock_version);
        else showNewer(event.lock_version);
      } else if (event.type === 'resync') {
        if (current) current.resync();
        else showNewer(null);
      }
    });
    return () => {
      stopFollowing();
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', back);
      presence.stop();
    };
  }, [workspaceId, emailId, presence]);

  useEffect(() => {
    presence?.select(selectedId);
  }, [presence, selectedId]);

  return useSyncExternalStore(
    (listener) => presence?.subscribe(listener) ?? (() => undefined),
    () => presence?.others ?? noOne,
  );
}

const noOne: readonly EmailPresence[] = [];
