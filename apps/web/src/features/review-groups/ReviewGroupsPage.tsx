import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { ReviewGroupForm } from './ReviewGroupForm.tsx';
import {
  deleteReviewGroup,
  reviewGroupKeys,
  reviewGroupListQuery,
  stagesSummary,
} from './review-groups-api.ts';

const perPage = 20;

/** The organization's reusable review groups: who reviews an email, stage by stage. */
export function ReviewGroupsPage() {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(reviewGroupListQuery(page, perPage));
  const manage = can('manage_review_groups');
  return (
    <Stack gap={0}>
      <PageHeader
        title="Review groups"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Review groups' }]}
      />
      <CollectionPanel
        noun="review group"
        description="A review group is the series of stages an email submitted for approval goes through. In each stage, either any one member’s approval is enough or every member must approve."
        query={query}
        onPage={setPage}
        queryKey={reviewGroupKeys.all}
        headers={['Name', 'Stages', 'People']}
        cells={(group) => [
          <Text key="name" fw={500}>
            {group.name}
          </Text>,
          <Text key="stages" size="sm">
            {stagesSummary(group)}
          </Text>,
          <Text key="people" size="sm" c="dimmed">
            {new Set(group.stages.flatMap((stage) => stage.members.map((member) => member.user_id))).size}
          </Text>,
        ]}
        nameOf={(group) => group.name}
        permissions={{ create: manage, update: manage, delete: manage }}
        renderForm={(group, close) => <ReviewGroupForm group={group} readOnly={!manage} onClose={close} />}
        deleteItem={(group) => deleteReviewGroup(group.id)}
        deleteMessage="It is no longer offered when submitting emails. Emails already in review with it keep their stages and go on as submitted. This cannot be undone."
        emptyHint="Create one to let people submit emails for approval to a set series of reviewers."
      />
    </Stack>
  );
}
