import type { ApprovalWorkflow, Email } from './review-api.ts';

export type ReviewAction =
  | 'submit'
  | 'resubmit'
  | 'approve'
  | 'request_changes'
  | 'publish'
  | 'force_publish'
  | 'convert_to_draft'
  | 'send_test';

export interface ActionState {
  enabled: boolean;
  /** Why it cannot be done now; null when it can. */
  reason: string | null;
}

export interface Viewer {
  id: number;
  permissions: readonly string[];
}

const statusWords: Record<Email['status'], string> = {
  draft: 'a draft',
  in_review: 'in review',
  changes_requested: 'waiting for changes',
  approved: 'approved',
  published: 'published',
};

const allowed: ActionState = { enabled: true, reason: null };
const refused = (reason: string): ActionState => ({ enabled: false, reason });

function namesInWords(names: string[]): string {
  if (names.length <= 1) return names[0] ?? 'nobody';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Who the stage under way still waits on, in words: "Bea Reviewer and Carl Checker". */
export function awaitedNames(workflow: ApprovalWorkflow): string {
  const progress = workflow.stages_progress.find(
    (stage) => stage.position === workflow.current_stage_position,
  );
  const stage = workflow.review_group.stages.find(
    (candidate) => candidate.position === workflow.current_stage_position,
  );
  const names = (progress?.waiting_on_user_ids ?? []).map((userId) => {
    const user = stage?.members.find((member) => member.user_id === userId)?.user;
    return user ? `${user.first_name} ${user.last_name}`.trim() : `user ${userId}`;
  });
  return namesInWords(names);
}

/**
 * What the viewer may do with the email's review now, and why not when they may not: the status,
 * their role's keys, and (for decisions) whether they are a reviewer of the stage under way.
 * `saved` is false while edits are still on their way to the server: a submission would freeze
 * content without them.
 */
export function reviewActionStates(
  email: Pick<Email, 'status' | 'lock_version'>,
  workflow: ApprovalWorkflow | null,
  me: Viewer,
  { saved = true }: { saved?: boolean } = {},
): Record<ReviewAction, ActionState> {
  const can = (key: string) => me.permissions.includes(key);
  const status = email.status;
  const underWay = workflow?.status === 'in_progress' ? workflow : null;
  const is = `It is ${statusWords[status]}`;

  const submit = (): ActionState => {
    if (!can('submit_for_approval')) return refused('Your role cannot submit emails for approval');
    if (status !== 'draft' && status !== 'changes_requested') {
      return refused(`${is}: only a draft, or an email with changes requested, can be submitted`);
    }
    if (!saved) return refused('Wait until your changes are saved');
    return allowed;
  };
  const resubmit = (): ActionState => {
    if (!can('submit_for_approval')) return refused('Your role cannot submit emails for approval');
    if (status !== 'changes_requested') return refused(`${is}: resubmit after a reviewer requests changes`);
    if (!underWay) return refused('The review was cancelled: submit it again');
    if (!saved) return refused('Wait until your changes are saved');
    return allowed;
  };
  const decideState = (): ActionState => {
    if (status !== 'in_review' || !underWay)
      return refused(`${is}: decisions are made while it is in review`);
    const position = underWay.current_stage_position;
    const stage = underWay.review_group.stages.find((candidate) => candidate.position === position);
    if (!stage?.members.some((member) => member.user_id === me.id)) {
      return refused(`Stage ${position} is waiting on ${awaitedNames(underWay)}`);
    }
    const progress = underWay.stages_progress.find((candidate) => candidate.position === position);
    if (progress?.approved_by_user_ids.includes(me.id)) {
      return refused(`You approved stage ${position}; it is waiting on ${awaitedNames(underWay)}`);
    }
    return allowed;
  };
  const publishState = (): ActionState => {
    if (!can('publish_emails')) return refused('Your role cannot publish emails');
    if (status !== 'approved') return refused(`${is}: only an approved email can be published`);
    if (workflow?.status === 'completed' && workflow.approved_lock_version !== email.lock_version) {
      return refused('The content changed since it was approved: submit it again');
    }
    return allowed;
  };
  const forcePublish = (): ActionState => {
    if (!can('force_publish_emails')) return refused('Your role cannot publish without approval');
    if (status === 'published') return refused('It is already published');
    return allowed;
  };
  const convert = (): ActionState => {
    if (!can('convert_emails_to_draft')) return refused('Your role cannot convert emails to draft');
    if (status === 'draft') return refused('It is already a draft');
    return allowed;
  };
  const sendTest = (): ActionState => {
    if (!can('send_test_emails')) return refused('Your role cannot send test emails');
    if (!saved) return refused('Wait until your changes are saved: the test sends the saved email');
    return allowed;
  };
  const decision = decideState();
  return {
    submit: submit(),
    resubmit: resubmit(),
    approve: decision,
    request_changes: decision,
    publish: publishState(),
    force_publish: forcePublish(),
    convert_to_draft: convert(),
    send_test: sendTest(),
  };
}

/** Why the editor is read-only for this email, or null when its status leaves it editable. */
export function frozenReason(status: Email['status']): string | null {
  switch (status) {
    case 'in_review':
      return 'This email is in review: what is approved is what ships, so its content cannot change now. A reviewer can request changes, or convert it to draft.';
    case 'approved':
      return 'This email is approved: it ships as approved. Publish it, or convert it to draft to change it.';
    case 'published':
      return 'This email is published, so it is read-only.';
    default:
      return null;
  }
}
