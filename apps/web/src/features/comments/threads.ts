import type { EmailComment } from './comments-api.ts';

export interface CommentThread {
  first: EmailComment;
  replies: EmailComment[];
  /** When someone last wrote in the thread (ISO timestamp). */
  lastActivityAt: string;
}

/**
 * Threads from a locale's comments (first comments and replies, in any order): replies under their
 * first comment, oldest first; threads ordered by their last activity, newest last. A reply whose
 * first comment is not in the list is left out.
 */
export function groupThreads(comments: readonly EmailComment[]): CommentThread[] {
  const byId = (a: EmailComment, b: EmailComment) => a.id - b.id;
  const threads = new Map<number, CommentThread>();
  for (const comment of [...comments].sort(byId)) {
    if (comment.parent_id === null) {
      threads.set(comment.id, { first: comment, replies: [], lastActivityAt: comment.created_at });
    }
  }
  for (const comment of [...comments].sort(byId)) {
    if (comment.parent_id === null) continue;
    const thread = threads.get(comment.parent_id);
    if (!thread) continue;
    thread.replies.push(comment);
    if (comment.created_at > thread.lastActivityAt) thread.lastActivityAt = comment.created_at;
  }
  return [...threads.values()].sort(
    (a, b) => a.lastActivityAt.localeCompare(b.lastActivityAt) || a.first.id - b.first.id,
  );
}

/** The threads to show: open ones, and resolved ones too when asked. */
export function shownThreads(threads: readonly CommentThread[], showResolved: boolean): CommentThread[] {
  return showResolved ? [...threads] : threads.filter((thread) => !thread.first.resolved);
}

/**
 * Each pinned thread's marker number, 1 upwards in the order the threads were started: numbers
 * stay put as threads get replies or are resolved.
 */
export function pinNumbers(threads: readonly CommentThread[]): Map<number, number> {
  const pinned = threads
    .filter((thread) => thread.first.pin_data !== null)
    .map((thread) => thread.first.id)
    .sort((a, b) => a - b);
  return new Map(pinned.map((id, index) => [id, index + 1]));
}
