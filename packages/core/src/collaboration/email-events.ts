/**
 * What changed on an email, as the people viewing it are told (the server's event stream). Small on
 * purpose: a viewer fetches what changed itself, with its own permissions.
 */
export type EmailEvent =
  | { type: 'comments_changed'; email_id: number; locale: string }
  | { type: 'status_changed'; email_id: number; status: string }
  | { type: 'review_changed'; email_id: number }
  | { type: 'content_changed'; email_id: number; lock_version: number }
  | {
      type: 'ai_generation_changed';
      email_id: number;
      ai_generation_status: 'generating' | 'done' | 'failed' | null;
    }
  | { type: 'presence_changed'; email_id: number; presence: EmailPresence };

/**
 * One browser tab that has the email open: who, and which component instance they have selected.
 * `left` once the tab closed; otherwise the entry lasts `presenceTimeoutMs` after its last heartbeat.
 */
export interface EmailPresence {
  /** The tab's own id: one person with two tabs open is two entries. */
  session_id: string;
  user_id: number;
  user_name: string;
  selected_instance_id: string | null;
  left: boolean;
}

/** An event of the stream: one announced, or `resync` when the viewer may have missed some. */
export type StreamedEmailEvent = EmailEvent | { type: 'resync'; email_id: number };

export const emailEventTypes = [
  'comments_changed',
  'status_changed',
  'review_changed',
  'content_changed',
  'ai_generation_changed',
  'presence_changed',
  'resync',
] as const satisfies readonly StreamedEmailEvent['type'][];
