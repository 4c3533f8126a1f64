import {
  type ConditionValueType,
  compilePickerState,
  conditionValueTypes,
  type PickerCondition,
  type PickerState,
  pickerStateProblems,
  type TemplateEnginePreset,
  templateEnginePresetSchema,
} from '@letterset/core';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import { type FormOf, RowsEditor } from '../../shared/RowsEditor.tsx';
import {
  type Conditional,
  type DynamicContentProfile,
  dynamicContentKeys,
  presetLabels,
  saveConditional,
} from './dynamic-content-api.ts';

type SyntaxMode = 'unset' | 'hand' | 'picker';

type ProfileSyntaxValues = {
  mode: SyntaxMode;
  closing: string;
  branch_values: Record<string, string>;
  ui_picker_state: PickerState;
};

export type ConditionalValues = {
  label: string;
  can_be_used_in_subject_and_preheader: boolean;
  branches: { key: string; label: string }[];
  /** The branch an export without a profile shows everyone; null: the last branch. */
  default_branch_key: string | null;
  default_value: { closing: string; branch_values: Record<string, string> };
  dynamic_content_profile_values: Record<string, ProfileSyntaxValues>;
};

const emptyPicker: PickerState = { include_else_branch: false, branches: {} };

function initialValues(
  conditional: Conditional | null,
  profiles: DynamicContentProfile[],
): ConditionalValues {
  const profileValues: Record<string, ProfileSyntaxValues> = {};
  for (const profile of profiles) {
    const stored = conditional?.dynamic_content_profile_syntaxes[profile.id];
    profileValues[profile.id] = {
      mode: !stored ? 'unset' : stored.uses_ui_picker ? 'picker' : 'hand',
      closing: stored?.closing ?? '',
      branch_values: { ...stored?.branch_values },
      ui_picker_state: (stored?.ui_picker_state as PickerState | undefined) ?? emptyPicker,
    };
  }
  return {
    label: conditional?.label ?? '',
    can_be_used_in_subject_and_preheader: conditional?.can_be_used_in_subject_and_preheader ?? false,
    branches: conditional?.branches ?? [{ key: '', label: '' }],
    default_branch_key: conditional?.default_branch_key ?? null,
    default_value: {
      closing: conditional?.default_syntax.closing ?? '',
      branch_values: { ...conditional?.default_syntax.branch_values },
    },
    dynamic_content_profile_values: profileValues,
  };
}

/** Only the current branch keys, each with a value: the API wants exactly one opening per branch. */
function openingsFor(keys: string[], values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, values[key] ?? '']));
}

export function requestBody(values: ConditionalValues) {
  const keys = values.branches.map((branch) => branch.key);
  const profileValues: Record<
    string,
    | { closing: string; branch_values: Record<string, string> }
    | { uses_ui_picker: true; ui_picker_state: PickerState }
  > = {};
  for (const [id, syntax] of Object.entries(values.dynamic_content_profile_values)) {
    if (syntax.mode === 'hand') {
      profileValues[id] = { closing: syntax.closing, branch_values: openingsFor(keys, syntax.branch_values) };
    } else if (syntax.mode === 'picker') {
      const branches = Object.fromEntries(
        Object.entries(syntax.ui_picker_state.branches).filter(([key]) => keys.includes(key)),
      );
      profileValues[id] = { uses_ui_picker: true, ui_picker_state: { ...syntax.ui_picker_state, branches } };
    }
  }
  return {
    label: values.label.trim(),
    can_be_used_in_subject_and_preheader: values.can_be_used_in_subject_and_preheader,
    branches: values.branches,
    // A chosen branch the form no longer has falls back to the last branch, as the select shows.
    default_branch_key:
      values.default_branch_key !== null && keys.includes(values.default_branch_key)
        ? values.default_branch_key
        : null,
    default_value: {
      closing: values.default_value.closing,
      branch_values: openingsFor(keys, values.default_value.branch_values),
    },
    dynamic_content_profile_values: profileValues,
  };
}

/** Create or edit a conditional: branches, the default syntax, and each profile's syntax. */
export function ConditionalForm({
  workspaceId,
  conditional,
  profiles,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  conditional: Conditional | null;
  profiles: DynamicContentProfile[];
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm<ConditionalValues>({ initialValues: initialValues(conditional, profiles) });
  const keys = form.values.branches.map((branch) => branch.key).filter((key) => key !== '');

  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const body = requestBody(values);
    try {
      const saved = await saveConditional(workspaceId, conditional, body);
      await queryClient.invalidateQueries({ queryKey: dynamicContentKeys.kind(workspaceId, 'conditionals') });
      notifications.show({ message: `${saved.label} saved` });
      onClose();
    } catch (error) {
      setProblems(
        showNestedApiErrors(form, error, [
          'label',
          'branches',
          'default_branch_key',
          'default_value',
          'dynamic_content_profile_values',
          'can_be_used_in_subject_and_preheader',
        ]),
      );
    }
  });

  return (
    <Modal opened onClose={onClose} title={conditional ? conditional.label : 'New conditional'} size="xl">
      <form onSubmit={save} noValidate>
        <Stack>
          {problems.length > 0 && (
            <Alert color="red" role="alert">
              {problems.join(' ')}
            </Alert>
          )}
          <TextInput
            label="Label"
            required
            readOnly={readOnly}
            data-autofocus
            {...form.getInputProps('label')}
          />
          <Switch
            label="Can be used in the subject and preheader"
            disabled={readOnly}
            {...form.getInputProps('can_be_used_in_subject_and_preheader', { type: 'checkbox' })}
          />
          <RowsEditor
            form={form}
            path="branches"
            legend="Branches"
            columns={[
              { key: 'label', label: 'Branch label', placeholder: 'Gold members' },
              { key: 'key', label: 'Branch key', placeholder: 'gold', monospace: true },
            ]}
            newRow={() => ({ key: '', label: '' })}
            addLabel="Add branch"
            readOnly={readOnly}
            emptyText="A conditional needs at least one branch."
          />
          <DefaultBranchSelect form={form} readOnly={readOnly} />
          <HandWrittenSyntax
            form={form}
            path="default_value"
            keys={keys}
            legend="Default syntax (profiles without a syntax of their own)"
            readOnly={readOnly}
          />
          {profiles.map((profile) => (
            <ProfileSyntax key={profile.id} form={form} profile={profile} keys={keys} readOnly={readOnly} />
          ))}
          {profiles.length === 0 && (
            <Text size="sm" c="dimmed">
              No dynamic content profiles yet: add one per sending platform to give this conditional that
              platform's syntax.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {readOnly ? 'Close' : 'Cancel'}
            </Button>
            {!readOnly && (
              <Button type="submit" loading={form.submitting}>
                Save
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Which branch everyone gets when the email is exported without a profile (and what previews show
 * until a branch is chosen). Unchosen, the last branch: the "everyone else" branch by convention.
 */
function DefaultBranchSelect({ form, readOnly }: { form: FormOf<ConditionalValues>; readOnly: boolean }) {
  const branches = form.values.branches.filter((branch) => branch.key !== '');
  const lastKey = branches.at(-1)?.key ?? null;
  const chosen = form.values.default_branch_key;
  const value = chosen !== null && branches.some((branch) => branch.key === chosen) ? chosen : lastKey;
  return (
    <Select
      label="Shown when exported without a profile"
      description="Every reader gets this branch, in no syntax. Exports for a profile hold every branch in its syntax."
      data={branches.map((branch) => ({ value: branch.key, label: branch.label.trim() || branch.key }))}
      value={value}
      onChange={(key) => form.setFieldValue('default_branch_key', key)}
      allowDeselect={false}
      disabled={readOnly || branches.length === 0}
      error={form.errors.default_branch_key}
      placeholder="Add a branch first"
    />
  );
}

function HandWrittenSyntax({
  form,
  path,
  keys,
  legend,
  readOnly,
}: {
  form: FormOf<ConditionalValues>;
  path: string;
  keys: string[];
  legend: string;
  readOnly: boolean;
}) {
  return (
    <Fieldset legend={legend} variant="filled">
      <Stack gap="xs">
        {keys.map((key, index) => (
          <TextInput
            key={key}
            label={`Opening of ${key}`}
            placeholder={index === 0 ? '{% if tier == "gold" %}' : '{% elsif tier == "silver" %}'}
            styles={monospaceInput}
            size="xs"
            readOnly={readOnly}
            {...form.getInputProps(`${path}.branch_values.${key}`)}
            value={(form.getInputProps(`${path}.branch_values.${key}`).value as string | undefined) ?? ''}
          />
        ))}
        <TextInput
          label="Closing"
          placeholder="{% endif %}"
          styles={monospaceInput}
          size="xs"
          readOnly={readOnly}
          {...form.getInputProps(`${path}.closing`)}
        />
      </Stack>
    </Fieldset>
  );
}

function ProfileSyntax({
  form,
  profile,
  keys,
  readOnly,
}: {
  form: FormOf<ConditionalValues>;
  profile: DynamicContentProfile;
  keys: string[];
  readOnly: boolean;
}) {
  const path = `dynamic_content_profile_values.${profile.id}`;
  const syntax = form.values.dynamic_content_profile_values[profile.id];
  const preset = profile.template_engine_preset;
  if (!syntax) return null;
  const modes = [
    { value: 'unset', label: 'Not set' },
    { value: 'hand', label: 'Written by hand' },
    ...(preset ? [{ value: 'picker', label: 'Preset picker' }] : []),
  ];
  const profileError = form.errors[path] ?? form.errors[`${path}.uses_ui_picker`];
  return (
    <Fieldset
      legend={`${profile.name}${preset ? ` · ${presetLabels[preset]}` : ''}`}
      data-testid={`profile-syntax-${profile.name}`}
    >
      <Stack gap="sm">
        <SegmentedControl
          aria-label={`How the ${profile.name} syntax is written`}
          data={modes}
          value={syntax.mode}
          disabled={readOnly}
          onChange={(mode) => form.setFieldValue(`${path}.mode`, mode as SyntaxMode)}
          style={{ alignSelf: 'flex-start' }}
        />
        {profileError && (
          <Text size="xs" c="red">
            {profileError}
          </Text>
        )}
        {syntax.mode === 'unset' && (
          <Text size="sm" c="dimmed">
            Exports with this profile use the default syntax. While it is empty, they are refused: every
            reader would get every branch.
          </Text>
        )}
        {syntax.mode === 'hand' && (
          <HandWrittenSyntax form={form} path={path} keys={keys} legend="Syntax" readOnly={readOnly} />
        )}
        {syntax.mode === 'picker' && preset && (
          <PresetPicker form={form} path={path} preset={preset} keys={keys} readOnly={readOnly} />
        )}
      </Stack>
    </Fieldset>
  );
}

const typeLabels: Record<ConditionValueType, string> = {
  string: 'Text',
  number: 'Number',
  boolean: 'Yes/no',
};

function PresetPicker({
  form,
  path,
  preset,
  keys,
  readOnly,
}: {
  form: FormOf<ConditionalValues>;
  path: string;
  preset: TemplateEnginePreset;
  keys: string[];
  readOnly: boolean;
}) {
  const statePath = `${path}.ui_picker_state`;
  const profileId = path.split('.')[1] ?? '';
  const state = form.values.dynamic_content_profile_values[profileId]?.ui_picker_state ?? emptyPicker;
  const schema = templateEnginePresetSchema(preset);
  const conditioned = state.include_else_branch ? keys.slice(0, -1) : keys;
  const elseKey = state.include_else_branch ? keys.at(-1) : undefined;
  const problems = pickerStateProblems(keys, state);
  const compiled =
    Object.keys(problems).length === 0 && keys.length > 0 ? compilePickerState(preset, keys, state) : null;
  const setConditions = (key: string, conditions: PickerCondition[]) =>
    form.setFieldValue(`${statePath}.branches.${key}`, { ...state.branches[key], conditions });

  return (
    <Stack gap="sm">
      <Checkbox
        label="The last branch is the else branch (no conditions)"
        checked={state.include_else_branch}
        disabled={readOnly}
        onChange={(event) =>
          form.setFieldValue(`${statePath}.include_else_branch`, event.currentTarget.checked)
        }
      />
      {conditioned.map((key) => {
        const branch = state.branches[key] ?? { conditions: [] };
        const branchPath = `${statePath}.branches.${key}`;
        return (
          <Fieldset key={key} legend={`When ${key}`} variant="unstyled" p={0}>
            <Stack gap="xs">
              {branch.conditions.length > 1 && (
                <SegmentedControl
                  size="xs"
                  aria-label={`How the conditions of ${key} combine`}
                  data={(schema?.joiners ?? []).map((joiner) => ({
                    value: joiner,
                    label: joiner === 'and' ? 'All of' : 'Any of',
                  }))}
                  value={branch.joiner ?? 'and'}
                  disabled={readOnly}
                  onChange={(joiner) => form.setFieldValue(`${branchPath}.joiner`, joiner as 'and' | 'or')}
                  style={{ alignSelf: 'flex-start' }}
                />
              )}
              {branch.conditions.map((condition, index) => {
                const operators = schema?.operators_by_type[condition.type] ?? [];
                const needsValue =
                  operators.find((operator) => operator.key === condition.operator)?.requires_value ?? false;
                const update = (changes: Partial<PickerCondition>) =>
                  setConditions(
                    key,
                    branch.conditions.map((other, at) => (at === index ? { ...other, ...changes } : other)),
                  );
                const conditionPath = `${branchPath}.conditions.${index}`;
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: conditions are identified by position, as the API's errors are
                  <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                    <TextInput
                      size="xs"
                      label="Attribute"
                      placeholder="tier"
                      styles={monospaceInput}
                      value={condition.attribute}
                      readOnly={readOnly}
                      onChange={(event) => update({ attribute: event.currentTarget.value })}
                      error={problemText(
                        problems,
                        form.errors,
                        `branches.${key}.conditions.${index}.attribute`,
                        `${conditionPath}.attribute`,
                      )}
                      style={{ flex: 1 }}
                    />
                    <Select
                      size="xs"
                      label="Type"
                      data={conditionValueTypes.map((type) => ({ value: type, label: typeLabels[type] }))}
                      value={condition.type}
                      allowDeselect={false}
                      readOnly={readOnly}
                      onChange={(type) => {
                        const nextType = (type ?? 'string') as ConditionValueType;
                        update({
                          type: nextType,
                          operator: schema?.operators_by_type[nextType][0]?.key ?? '',
                          value: null,
                        });
                      }}
                      style={{ flex: 1 }}
                    />
                    <Select
                      size="xs"
                      label="Operator"
                      data={operators.map((operator) => ({
                        value: operator.key,
                        label: operator.key.replaceAll('_', ' '),
                      }))}
                      value={condition.operator}
                      allowDeselect={false}
                      readOnly={readOnly}
                      onChange={(operator) => update({ operator: operator ?? '' })}
                      error={problemText(
                        problems,
                        form.errors,
                        `branches.${key}.conditions.${index}.operator`,
                        `${conditionPath}.operator`,
                      )}
                      style={{ flex: 1 }}
                    />
                    {needsValue ? (
                      <TextInput
                        size="xs"
                        label="Value"
                        value={
                          condition.value === null || condition.value === undefined
                            ? ''
                            : String(condition.value)
                        }
                        readOnly={readOnly}
                        onChange={(event) => update({ value: event.currentTarget.value })}
                        error={problemText(
                          problems,
                          form.errors,
                          `branches.${key}.conditions.${index}.value`,
                          `${conditionPath}.value`,
                        )}
                        style={{ flex: 1 }}
                      />
                    ) : (
                      <div style={{ flex: 1 }} />
                    )}
                    {!readOnly && (
                      <ActionIcon
                        mt={22}
                        variant="subtle"
                        color="red"
                        aria-label={`Remove condition ${index + 1} of ${key}`}
                        onClick={() =>
                          setConditions(
                            key,
                            branch.conditions.filter((_, at) => at !== index),
                          )
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Group>
                );
              })}
              {!readOnly && (
                <Button
                  size="xs"
                  variant="light"
                  style={{ alignSelf: 'flex-start' }}
                  onClick={() =>
                    setConditions(key, [
                      ...branch.conditions,
                      { attribute: '', type: 'string', operator: 'equals', value: '' },
                    ])
                  }
                >
                  Add condition to {key}
                </Button>
              )}
            </Stack>
          </Fieldset>
        );
      })}
      {elseKey && (
        <Text size="sm" c="dimmed">
          {elseKey} is shown when no branch before it applies.
        </Text>
      )}
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Compiled syntax
        </Text>
        {compiled ? (
          <Code block data-testid="compiled-syntax">
            {[...keys.map((key) => `${compiled.branch_values[key]}   ← ${key}`), compiled.closing].join('\n')}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            Give every branch{state.include_else_branch ? ' except the else branch' : ''} a complete condition
            to see the syntax.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}

/** The browser's check of the picker once the user has typed, else the API's message for the same input. */
function problemText(
  problems: Record<string, string[]>,
  formErrors: Record<string, unknown>,
  pickerPath: string,
  formPath: string,
): string | undefined {
  const fromServer = formErrors[formPath];
  return problems[pickerPath]?.join('; ') || (typeof fromServer === 'string' ? fromServer : undefined);
}
