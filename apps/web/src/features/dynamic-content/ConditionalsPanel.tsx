import { Badge, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { ConditionalForm } from './ConditionalForm.tsx';
import {
  allProfilesQuery,
  conditionalListQuery,
  deleteConditional,
  dynamicContentKeys,
} from './dynamic-content-api.ts';

/** Conditionals: content that differs per recipient, one branch per audience. */
export function ConditionalsPanel({ workspaceId }: { workspaceId: number }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(conditionalListQuery(workspaceId, page));
  const profiles = useQuery(allProfilesQuery(workspaceId));
  return (
    <CollectionPanel
      noun="conditional"
      description="A conditional gives a component (or the subject and preheader) one version per branch, e.g. Gold members and everyone else. On export each branch is wrapped in the sending platform's syntax: written by hand, or built with the preset picker for profiles with a template engine preset."
      query={query}
      onPage={setPage}
      queryKey={dynamicContentKeys.kind(workspaceId, 'conditionals')}
      headers={['Label', 'Branches', 'Subject and preheader']}
      cells={(conditional) => [
        <Text key="label" fw={500}>
          {conditional.label}
        </Text>,
        <Group key="branches" gap={4}>
          {conditional.branches.map((branch) => (
            <Badge key={branch.key} variant="light" size="sm">
              {branch.label}
            </Badge>
          ))}
        </Group>,
        conditional.can_be_used_in_subject_and_preheader ? 'Allowed' : 'No',
      ]}
      nameOf={(conditional) => conditional.label}
      permissions={{
        create: can('create_conditionals'),
        update: can('update_conditionals'),
        delete: can('delete_conditionals'),
      }}
      renderForm={(conditional, close) =>
        // The form starts with one syntax per profile, so it waits for the profiles.
        profiles.isPending ? null : (
          <ConditionalForm
            workspaceId={workspaceId}
            conditional={conditional}
            profiles={profiles.data?.results ?? []}
            readOnly={conditional !== null && !can('update_conditionals')}
            onClose={close}
          />
        )
      }
      deleteItem={(conditional) => deleteConditional(workspaceId, conditional.id)}
      emptyHint="Create one to show different content to different recipients."
    />
  );
}
