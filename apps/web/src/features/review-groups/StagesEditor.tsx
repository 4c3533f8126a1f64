import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { arrayMove, DragHandle, SortableList, useSortableItem } from '../../shared/SortableList.tsx';
import { fullName } from '../settings/settings-api.ts';
import { usePeopleSearch } from '../settings/UserPicker.tsx';
import { type ApprovalType, approvalTypeLabels, type DraftStage, newStage } from './review-groups-api.ts';

export type Person = { id: number; first_name: string; last_name: string };

/**
 * A review group's stages in review order: add and remove stages, reorder them by dragging or
 * with the move buttons (or the keyboard on the drag handle), choose whether any or every member
 * approves, and pick the members. `errors` are the form's, keyed `stages.N.…`.
 */
export function StagesEditor({
  stages,
  onChange,
  errors,
  people,
  onPeopleChosen,
  readOnly = false,
}: {
  stages: DraftStage[];
  onChange: (stages: DraftStage[]) => void;
  errors: Record<string, string | undefined>;
  /** People the group names or who were chosen, so their names show without a search. */
  people: ReadonlyMap<number, Person>;
  /** People just chosen from a search: the caller remembers them for `people`. */
  onPeopleChosen: (chosen: Person[]) => void;
  readOnly?: boolean;
}) {
  const move = (from: number, to: number) => onChange(arrayMove(stages, from, to));
  const update = (key: string, change: Partial<DraftStage>) =>
    onChange(stages.map((stage) => (stage.key === key ? { ...stage, ...change } : stage)));

  return (
    <Stack gap="sm">
      <Text fw={500}>Stages</Text>
      <Text size="sm" c="dimmed">
        An email goes through the stages in this order; each stage starts once the one before it is approved.
      </Text>
      {errors.stages && (
        <Text size="sm" c="red">
          {errors.stages}
        </Text>
      )}
      <SortableList ids={stages.map((stage) => stage.key)} onMove={move}>
        {stages.map((stage, index) => (
          <StageCard
            key={stage.key}
            stage={stage}
            index={index}
            count={stages.length}
            errors={errors}
            people={people}
            onPeopleChosen={onPeopleChosen}
            readOnly={readOnly}
            onMove={(to) => move(index, to)}
            onChange={(change) => update(stage.key, change)}
            onRemove={() => onChange(stages.filter((other) => other.key !== stage.key))}
          />
        ))}
      </SortableList>
      {!readOnly && (
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...stages, newStage()])}
          >
            Add stage
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function StageCard({
  stage,
  index,
  count,
  errors,
  people,
  onPeopleChosen,
  readOnly,
  onMove,
  onChange,
  onRemove,
}: {
  stage: DraftStage;
  index: number;
  count: number;
  errors: Record<string, string | undefined>;
  people: ReadonlyMap<number, Person>;
  onPeopleChosen: (chosen: Person[]) => void;
  readOnly: boolean;
  onMove: (to: number) => void;
  onChange: (change: Partial<DraftStage>) => void;
  onRemove: () => void;
}) {
  const { itemRef, itemStyle, handle } = useSortableItem(stage.key, { disabled: readOnly });
  const number = index + 1;
  const at = `stages.${index}`;
  // Problems of the stage itself (its position or id), beside those of its members and approval type.
  const stageProblems = [errors[`${at}.position`], errors[`${at}.id`]].filter(Boolean).join('; ');
  return (
    <Paper
      withBorder
      p="sm"
      ref={itemRef}
      style={itemStyle}
      aria-label={`Stage ${number}`}
      component="section"
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap={4} wrap="nowrap">
            {!readOnly && <DragHandle label={`Drag stage ${number}`} handle={handle} />}
            <Text fw={500}>Stage {number}</Text>
          </Group>
          {!readOnly && (
            <Group gap={4} wrap="nowrap">
              <Tooltip label="Already the first stage" disabled={index > 0}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Move stage ${number} up`}
                  disabled={index === 0}
                  onClick={() => onMove(index - 1)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Already the last stage" disabled={index < count - 1}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Move stage ${number} down`}
                  disabled={index === count - 1}
                  onClick={() => onMove(index + 1)}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="A review group needs at least one stage" disabled={count > 1}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove stage ${number}`}
                  disabled={count === 1}
                  onClick={onRemove}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        <SegmentedControl
          aria-label={`Who approves stage ${number}`}
          readOnly={readOnly}
          value={stage.approval_type}
          onChange={(value) => onChange({ approval_type: value as ApprovalType })}
          data={(['one_of', 'all_of'] as const).map((value) => ({ value, label: approvalTypeLabels[value] }))}
        />
        {errors[`${at}.approval_type`] && (
          <Text size="sm" c="red">
            {errors[`${at}.approval_type`]}
          </Text>
        )}
        <MembersPicker
          label={`Members of stage ${number}`}
          people={people}
          onPeopleChosen={onPeopleChosen}
          readOnly={readOnly}
          error={errors[`${at}.members`]}
          value={stage.members.map((member) => member.user_id)}
          onChange={(userIds) =>
            onChange({
              // Members still chosen keep their id (the API keeps them); new ones come without.
              members: userIds.map(
                (userId) => stage.members.find((member) => member.user_id === userId) ?? { user_id: userId },
              ),
            })
          }
        />
        {stageProblems && (
          <Text size="sm" c="red">
            {stageProblems}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The organization's people, found by name or email, as a multiple choice. */
function MembersPicker({
  label,
  value,
  onChange,
  people,
  onPeopleChosen,
  error,
  readOnly,
}: {
  label: string;
  value: number[];
  onChange: (userIds: number[]) => void;
  people: ReadonlyMap<number, Person>;
  onPeopleChosen: (chosen: Person[]) => void;
  error: string | undefined;
  readOnly: boolean;
}) {
  const { search, setSearch, people: found, searching } = usePeopleSearch();
  const nameOf = (userId: number) => {
    const person = people.get(userId) ?? found.find((user) => user.id === userId);
    return person ? fullName(person) : `User ${userId}`;
  };
  const options = [
    ...value.map((userId) => ({ value: String(userId), label: nameOf(userId) })),
    ...found
      .filter((user) => !value.includes(user.id))
      .map((user) => ({ value: String(user.id), label: `${fullName(user)} (${user.email})` })),
  ];
  return (
    <MultiSelect
      label={label}
      placeholder={readOnly ? undefined : 'Search by name or email'}
      searchable
      readOnly={readOnly}
      data={options}
      value={value.map(String)}
      error={error}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={searching ? 'Searching…' : 'Nobody found'}
      onChange={(values) => {
        const next = values.map(Number);
        const chosen = found.filter((user) => next.includes(user.id) && !people.has(user.id));
        if (chosen.length > 0) onPeopleChosen(chosen);
        onChange(next);
      }}
    />
  );
}
