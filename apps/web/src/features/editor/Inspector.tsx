import {
  type ComponentInstance,
  copyLocaleValues,
  type FieldDefinition,
  type FieldValue,
  isFieldVisible,
  nullBranch,
  renameComponent,
  setConditional,
  setFieldValue,
  setHiddenInLocale,
} from '@letterset/core';
import {
  Button,
  Divider,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { dispatchCommand, instanceLabel, useEditorSession } from './EditorContext.tsx';
import { FeedFill, fillsFromFeed } from './FeedFill.tsx';
import { FieldEditor } from './fields/FieldEditor.tsx';
import { LinkTrackingFields } from './fields/LinkTrackingFields.tsx';

/** The branch of an instance the inspector edits: the one picked in the branch switcher, else the first. */
export function editedBranch(
  instance: ComponentInstance,
  branchKeys: readonly string[],
  selection: Record<string, string>,
): string {
  if (instance.conditional_id == null) return nullBranch;
  const picked = selection[String(instance.conditional_id)];
  if (picked && branchKeys.includes(picked)) return picked;
  return branchKeys[0] ?? Object.keys(instance.field_values)[0] ?? nullBranch;
}

/** Fields whose links the email's link tracking profile tracks: url fields, and every link of rich text. */
function tracksLinks(definition: FieldDefinition): boolean {
  return (
    (definition.type === 'url' && definition.skip_link_tracking !== true) || definition.type === 'rich_text'
  );
}

/**
 * One field of the inspector and its link tracking parameters. Memoised on its own stored value:
 * typing in one field re-renders that field, not its neighbours.
 */
const InspectorField = memo(function InspectorField({
  instanceId,
  branch,
  locale,
  definition,
  stored,
  shownValue,
}: {
  instanceId: string;
  branch: string;
  locale: string;
  definition: FieldDefinition;
  stored: FieldValue | undefined;
  shownValue: string;
}) {
  const { editor, workspaceId, readOnly, personalizationTags, customStyles } = useEditorSession();
  const variable = definition.liquid_variable;
  const target = useMemo(
    () => ({ instanceId, branch, locale, variable }),
    [instanceId, branch, locale, variable],
  );
  const change = useCallback(
    (value: string | number | boolean | null) => dispatchCommand(editor, setFieldValue(target, value)),
    [editor, target],
  );
  return (
    <div data-field={variable}>
      <FieldEditor
        workspaceId={workspaceId}
        instanceId={instanceId}
        definition={definition}
        value={stored?.value}
        disabled={readOnly}
        personalizationTags={personalizationTags}
        customStyles={customStyles}
        onChange={change}
      />
      {tracksLinks(definition) && (
        <LinkTrackingFields
          target={target}
          fieldLabel={definition.label}
          stored={stored}
          shownValue={shownValue}
        />
      )}
    </div>
  );
});

/** Field definitions in their groups, in the order the component lists them. */
function groupFields(definitions: readonly FieldDefinition[]): [string | null, FieldDefinition[]][] {
  const groups = new Map<string | null, FieldDefinition[]>();
  for (const definition of definitions) {
    const group = definition.group?.trim() || null;
    groups.set(group, [...(groups.get(group) ?? []), definition]);
  }
  return [...groups.entries()];
}

/** The selected instance's name, conditional and fields, in the locale and branch being edited. */
export function Inspector({
  instance,
  defaultLocale,
}: {
  instance: ComponentInstance;
  defaultLocale: string;
}) {
  const session = useEditorSession();
  const { editor, componentsById, conditionals, readOnly, locale, branchSelection, focusRequest } = session;
  const component = componentsById.get(instance.component_id);
  const conditional = conditionals.find((candidate) => candidate.id === instance.conditional_id);
  const branchKeys = conditional?.branches.map((branch) => branch.key) ?? Object.keys(instance.field_values);
  const branch = editedBranch(instance, branchKeys, branchSelection);
  const stored = instance.field_values[branch]?.[locale] ?? {};
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!focusRequest || focusRequest.instanceId !== instance.id) return;
    const wrapper = box.current?.querySelector<HTMLElement>(
      `[data-field="${CSS.escape(focusRequest.variable)}"]`,
    );
    const target = wrapper?.querySelector<HTMLElement>('input, textarea, [contenteditable="true"], button');
    wrapper?.scrollIntoView({ block: 'center' });
    target?.focus();
  }, [focusRequest, instance.id]);

  if (!component) {
    return <Text c="red">This instance uses a component the design system no longer has.</Text>;
  }
  const values: Record<string, unknown> = {};
  for (const definition of component.field_definitions) {
    values[definition.liquid_variable] =
      stored[definition.liquid_variable]?.value ?? definition.default_value;
  }
  const shownFields = component.field_definitions.filter(
    (definition) => !definition.hidden_in_editor && isFieldVisible(definition, values),
  );
  const isContainer = component.container;
  const canAttachConditional = !readOnly && editor.can('setConditional') && !isContainer;
  const hiddenHere = instance.hidden_from_locales?.[locale] === true;

  return (
    <Stack gap="sm" ref={box}>
      <Title order={2} fz="md">
        {instanceLabel(instance, componentsById)}
      </Title>
      {!isContainer && (
        <TextInput
          label="Name in the outline"
          placeholder={component.label}
          disabled={readOnly}
          value={instance.name ?? ''}
          onChange={(event) =>
            dispatchCommand(editor, renameComponent(instance.id, event.currentTarget.value))
          }
        />
      )}
      {!isContainer && (canAttachConditional || conditional) && (
        <Select
          label="Conditional"
          description="Show different content to different readers."
          placeholder="None"
          clearable
          disabled={!canAttachConditional}
          value={instance.conditional_id == null ? null : String(instance.conditional_id)}
          data={conditionals.map((candidate) => ({ value: String(candidate.id), label: candidate.label }))}
          onChange={(value) => {
            const chosen = conditionals.find((candidate) => String(candidate.id) === value);
            dispatchCommand(
              editor,
              setConditional(
                instance.id,
                chosen?.id ?? null,
                chosen ? chosen.branches.map((item) => item.key) : branchKeys,
              ),
            );
          }}
        />
      )}
      {instance.conditional_id != null && branchKeys.length > 0 && (
        <div>
          <Text size="sm" fw={500} mb={4}>
            Branch
          </Text>
          <SegmentedControl
            fullWidth
            aria-label="Branch"
            value={branch}
            onChange={(key) => session.setBranch(instance.conditional_id as number, key)}
            data={branchKeys.map((key) => ({
              value: key,
              label: conditional?.branches.find((item) => item.key === key)?.label ?? key,
            }))}
          />
        </div>
      )}
      {!readOnly && locale !== defaultLocale && (
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            onClick={() => dispatchCommand(editor, copyLocaleValues(locale, instance.id))}
          >
            Copy from {defaultLocale}
          </Button>
        </Group>
      )}
      {!isContainer && (
        <Switch
          label={`Hide in ${locale}`}
          disabled={readOnly}
          checked={hiddenHere}
          onChange={(event) =>
            dispatchCommand(editor, setHiddenInLocale(instance.id, locale, event.currentTarget.checked))
          }
        />
      )}
      {!readOnly && fillsFromFeed(component) && (
        <FeedFill component={component} target={{ instanceId: instance.id, branch, locale }} />
      )}
      <Divider />
      {groupFields(shownFields).map(([group, definitions]) => (
        <Stack key={group ?? ''} gap="xs">
          {group && (
            <Text size="xs" tt="uppercase" fw={700} c="dimmed">
              {group}
            </Text>
          )}
          {definitions.map((definition) => (
            <InspectorField
              key={definition.liquid_variable}
              instanceId={instance.id}
              branch={branch}
              locale={locale}
              definition={definition}
              stored={stored[definition.liquid_variable]}
              shownValue={String(values[definition.liquid_variable] ?? '')}
            />
          ))}
        </Stack>
      ))}
      {shownFields.length === 0 && (
        <Text size="sm" c="dimmed">
          This component has no fields to edit.
        </Text>
      )}
    </Stack>
  );
}
