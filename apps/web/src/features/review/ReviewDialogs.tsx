import { Alert, Button, Group, Modal, Select, Stack, TagsInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import type { ReviewDecision } from './review-api.ts';

/** Approve or request changes, with a comment (shown to the submitter and in the timeline). */
export function DecisionModal({
  decision,
  onClose,
  onDecide,
}: {
  decision: ReviewDecision | null;
  onClose: () => void;
  onDecide: (decision: ReviewDecision, comment: string) => Promise<void>;
}) {
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asking = decision === 'request_changes';

  async function send() {
    if (!decision) return;
    if (asking && !comment.trim()) {
      setProblem('Say what should change');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await onDecide(decision, comment);
      setComment('');
      onClose();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={decision !== null} onClose={onClose} title={asking ? 'Request changes' : 'Approve'}>
      <Stack>
        <Textarea
          label={asking ? 'What should change' : 'Comment (optional)'}
          autosize
          minRows={3}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          data-autofocus
        />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={asking ? 'orange' : 'green'} onClick={send} loading={busy}>
            {asking ? 'Request changes' : 'Approve'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Send a test: up to 10 recipients, one locale of the email. */
export function TestSendModal({
  opened,
  locales,
  defaultLocale,
  onClose,
  onSend,
}: {
  opened: boolean;
  locales: string[];
  defaultLocale: string;
  onClose: () => void;
  onSend: (recipients: string[], locale: string) => Promise<void>;
}) {
  const [recipients, setRecipients] = useState<string[]>([]);
  const [locale, setLocale] = useState(defaultLocale);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send() {
    const wrong = recipients.filter((recipient) => !emailPattern.test(recipient));
    if (recipients.length === 0) return setProblem('Add at least one recipient');
    if (wrong.length > 0) return setProblem(`Not an email address: ${wrong.join(', ')}`);
    setBusy(true);
    setProblem(null);
    try {
      await onSend(recipients, locale);
      onClose();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Send a test">
      <Stack>
        <TagsInput
          label="Recipients"
          description="Up to 10 addresses; press Enter after each"
          maxTags={10}
          value={recipients}
          onChange={setRecipients}
          splitChars={[',', ' ', ';']}
        />
        <Select
          label="Locale"
          data={locales}
          value={locale}
          allowDeselect={false}
          onChange={(value) => value && setLocale(value)}
        />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={send} loading={busy}>
            Send test
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
