import { Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import {
  type AiReviewer,
  aiReviewerKeys,
  aiReviewerListQuery,
  deleteAiReviewer,
  saveAiReviewer,
} from './ai-reviewers-api.ts';

const perPage = 20;
const instructionsLimit = 10_000;

/** The workspace's AI reviewers: named review instructions people can ask to look at an email. */
export function AiReviewersPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(aiReviewerListQuery(workspaceId, page, perPage));
  return (
    <Stack gap={0}>
      <PageHeader
        title="AI reviewers"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'AI reviewers' }]}
      />
      <CollectionPanel
        noun="AI reviewer"
        description="An AI reviewer is a set of review instructions, such as a brand voice or legal checklist. People can already ask one to review an email; running the review with an AI model comes in a later release."
        query={query}
        onPage={setPage}
        queryKey={aiReviewerKeys.all(workspaceId)}
        headers={['Name', 'Instructions']}
        cells={(reviewer) => [
          <Text key="name" fw={500}>
            {reviewer.name}
          </Text>,
          <Text key="instructions" size="sm" c="dimmed" lineClamp={2}>
            {reviewer.review_instructions}
          </Text>,
        ]}
        nameOf={(reviewer) => reviewer.name}
        permissions={{
          create: can('create_ai_reviewers'),
          update: can('update_ai_reviewers'),
          delete: can('delete_ai_reviewers'),
        }}
        renderForm={(reviewer, close) => (
          <AiReviewerForm
            workspaceId={workspaceId}
            reviewer={reviewer}
            readOnly={reviewer ? !can('update_ai_reviewers') : false}
            onClose={close}
          />
        )}
        deleteItem={(reviewer) => deleteAiReviewer(workspaceId, reviewer.id)}
        deleteMessage="Requests asking it to review emails are withdrawn. This cannot be undone."
        emptyHint="Add one with the instructions a reviewer should follow, such as your brand’s voice."
      />
    </Stack>
  );
}

export function AiReviewerForm({
  workspaceId,
  reviewer,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  reviewer: AiReviewer | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: { name: reviewer?.name ?? '', review_instructions: reviewer?.review_instructions ?? '' },
    validate: {
      name: (value) => (value.trim() ? null : 'Give the reviewer a name'),
      review_instructions: (value) => (value.trim() ? null : 'Say what the reviewer should look for'),
    },
  });
  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      saveAiReviewer(workspaceId, reviewer, {
        name: values.name.trim(),
        review_instructions: values.review_instructions.trim(),
      }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: aiReviewerKeys.all(workspaceId) });
      notifications.show({ color: 'teal', message: `The AI reviewer “${saved.name}” was saved.` });
      onClose();
    },
    onError: (error) => setProblems(showApiErrors(form, error, ['name', 'review_instructions'])),
  });
  return (
    <Modal opened onClose={onClose} title={reviewer ? reviewer.name : 'New AI reviewer'} size="lg">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <FormProblems problems={problems} />
          <TextInput
            label="Name"
            required
            readOnly={readOnly}
            maxLength={200}
            {...form.getInputProps('name')}
          />
          <Textarea
            label="Review instructions"
            description="What the reviewer checks, in plain words, e.g. “Prices always name their conditions; the tone stays friendly.”"
            required
            readOnly={readOnly}
            autosize
            minRows={6}
            maxRows={16}
            maxLength={instructionsLimit}
            {...form.getInputProps('review_instructions')}
          />
          <FormActions
            readOnly={readOnly}
            onCancel={onClose}
            submitLabel={reviewer ? 'Save reviewer' : 'Create reviewer'}
            submitting={save.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
