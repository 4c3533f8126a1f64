import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../shared/api-error.ts';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { fullName } from '../settings/settings-api.ts';
import {
  draftOf,
  peopleOf,
  type ReviewGroup,
  type ReviewGroupDraft,
  reviewGroupKeys,
  saveReviewGroup,
} from './review-groups-api.ts';
import { type Person, StagesEditor } from './StagesEditor.tsx';

/**
 * A 422 about one member (`stages.1.members.0.user_id`) is shown at its stage's member picker,
 * naming the person, since a picker has no field per member.
 */
export function withMemberErrorsOnStages(
  error: unknown,
  draft: ReviewGroupDraft,
  nameOf: (userId: number) => string,
): unknown {
  if (!(error instanceof ApiError) || error.status !== 422) return error;
  const errors: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const member = /^stages\.(\d+)\.members\.(\d+)\./.exec(path);
    const userId = member ? draft.stages[Number(member[1])]?.members[Number(member[2])]?.user_id : undefined;
    const key = member ? `stages.${member[1]}.members` : path;
    const named = userId === undefined ? messages : messages.map((message) => `${nameOf(userId)} ${message}`);
    errors[key] = [...(errors[key] ?? []), ...named];
  }
  return new ApiError(422, { message: error.message, errors });
}

/** Creates a review group (no `group`) or edits one; read-only without manage_review_groups. */
export function ReviewGroupForm({
  group,
  readOnly,
  onClose,
}: {
  group: ReviewGroup | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  // Everyone the group names or who was picked since: the names pills and 422 messages show.
  const [people, setPeople] = useState<ReadonlyMap<number, Person>>(() => peopleOf(group));
  const form = useForm<ReviewGroupDraft>({
    initialValues: draftOf(group),
    validate: (values) => ({
      name: values.name.trim() ? null : 'Give the group a name',
      stages: values.stages.length === 0 ? 'Add at least one stage' : null,
      ...Object.fromEntries(
        values.stages.map((stage, index) => [
          `stages.${index}.members`,
          stage.members.length === 0 ? 'Choose at least one member' : null,
        ]),
      ),
    }),
  });
  const save = useMutation({
    mutationFn: (draft: ReviewGroupDraft) => saveReviewGroup(group, draft),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: reviewGroupKeys.all });
      notifications.show({ color: 'teal', message: `The review group “${saved.name}” was saved.` });
      onClose();
    },
    onError: (error, draft) => {
      const fields = [
        'name',
        ...draft.stages.flatMap((_, index) =>
          ['members', 'approval_type', 'position', 'id'].map((part) => `stages.${index}.${part}`),
        ),
        'stages',
      ];
      const nameOf = (userId: number) => {
        const person = people.get(userId);
        return person ? fullName(person) : `User ${userId}`;
      };
      setProblems(showApiErrors(form, withMemberErrorsOnStages(error, draft, nameOf), fields));
    },
  });

  return (
    <Modal opened onClose={onClose} title={group ? group.name : 'New review group'} size="lg">
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
          <StagesEditor
            stages={form.values.stages}
            onChange={(stages) => {
              // Errors name stages by index: once stages move, they would point at the wrong ones.
              form.clearErrors();
              form.setFieldValue('stages', stages);
            }}
            errors={Object.fromEntries(
              Object.entries(form.errors).map(([key, value]) => [key, value ? String(value) : undefined]),
            )}
            people={people}
            onPeopleChosen={(chosen) =>
              setPeople(
                (known) => new Map([...known, ...chosen.map((person) => [person.id, person] as const)]),
              )
            }
            readOnly={readOnly}
          />
          <FormActions
            readOnly={readOnly}
            onCancel={onClose}
            submitLabel={group ? 'Save group' : 'Create group'}
            submitting={save.isPending}
          />
          {readOnly && (
            <Text size="sm" c="dimmed">
              Changing review groups takes the manage review groups permission.
            </Text>
          )}
        </Stack>
      </form>
    </Modal>
  );
}
